import { createApiClient, unwrap } from '../../api/create-api-client.js';
import type { ReloadAnswer } from '../../config/create-config-reloader.js';
import { lenientControlSocket } from '../../sdk/resolve-endpoint.js';
import type { CommandHandler } from '../command-context.js';

interface Refusal {
  readonly error: string;
  readonly code: string;
  readonly key?: string;
  readonly issues?: readonly unknown[];
}

/**
 * `the-loop reload` (docs/design.md §22): asks the running serve to re-read its config file.
 * Exit 0 applied (keys that need a restart are named), 1 serve not running, 2 file refused.
 * serve is found through the file's `state.root` read leniently, never by validating the file:
 * a file that no longer parses is exactly when a person runs this.
 */
export const runReload: CommandHandler = async (context) => {
  const client = createApiClient({
    socketPath: await lenientControlSocket(context.configFile, context.io.env),
  });
  const response = await client.request<ReloadAnswer | Refusal>('POST', '/api/v1/reload');
  if (
    response.status === 400 &&
    isRefusal(response.body) &&
    response.body.code === 'config_invalid'
  ) {
    if (context.json) context.printJson(response.body);
    context.io.stderr.write(`error: ${response.body.error}\n`);
    return 2;
  }
  const answer = unwrap(response) as ReloadAnswer;
  if (context.json) context.printJson(answer);
  else context.print(formatReload(answer));
  return 0;
};

function isRefusal(body: unknown): body is Refusal {
  return typeof body === 'object' && body !== null && typeof (body as Refusal).error === 'string';
}

export function formatReload(answer: ReloadAnswer): string {
  const { sessions } = answer;
  const lines = [
    answer.applied.length === 0
      ? 'config reloaded: nothing to apply'
      : `config reloaded; applied: ${answer.applied.join(', ')}`,
  ];
  if (answer.needsRestart.length > 0) {
    lines.push(`not applied, needs a restart of serve: ${answer.needsRestart.join(', ')}`);
  }
  for (const start of sessions.started) {
    lines.push(
      start.error
        ? `session ${start.name}: not started — ${start.error.message}`
        : `session ${start.name}: ${start.outcome ?? 'started'}`,
    );
  }
  const notStarted = sessions.added.filter(
    (name) => !sessions.started.some((start) => start.name === name),
  );
  if (notStarted.length > 0) {
    lines.push(`declared, not started (autoStart off): ${notStarted.join(', ')}`);
  }
  if (sessions.undeclared.length > 0) {
    lines.push(
      `no longer declared, running on as undeclared until stopped: ${sessions.undeclared.join(', ')}`,
    );
  }
  return lines.join('\n');
}
