import { createApiClient } from '../../api/create-api-client.js';
import { asLoopError } from '../../errors.js';
import type { CommandHandler } from '../command-context.js';
import { hookPayload } from '../hook-payload.js';
import { readStreamText } from '../read-stream-text.js';
import { sessionEnv } from '../session-env.js';

/** Claude Code waits for its hooks: with node's own start-up the command stays near a second. */
const hookBudgetMs = 700;
const stdinTimeoutMs = 300;
const maxPayloadBytes = 1024 * 1024;
/**
 * PermissionRequest blocks until someone decides (DESIGN §14); serve answers "no decision" at
 * permissions.timeoutSeconds, and Claude Code's own hook timeout, just above that, ends it anyway.
 */
const blockingHooks = new Set(['PermissionRequest']);
const blockingBudgetMs = 24 * 60 * 60 * 1000;

/**
 * `the-loop hook EVENT` (DESIGN §8): forwards the hook JSON to serve. It must never block or fail
 * the agent, so it always exits 0, gives up on stdin and on serve in time, and writes nothing to
 * stdout (Claude Code reads a hook's stdout as instructions) — except for PermissionRequest, whose
 * decision JSON is printed as serve gave it. Problems get one line on stderr.
 */
export const runHook: CommandHandler = async (context) => {
  const started = Date.now();
  const { stderr } = context.io;
  const session = sessionEnv(context.io.env);
  if (session === undefined) {
    stderr.write('the-loop hook: not inside a session started by the-loop; nothing sent\n');
    return 0;
  }
  const payload = hookPayload(
    await readStreamText(context.io.stdin, {
      maxBytes: maxPayloadBytes,
      timeoutMs: stdinTimeoutMs,
    }),
  );
  const name = context.args['event'] ?? '';
  const event = encodeURIComponent(name);
  const blocking = blockingHooks.has(name);
  const client = createApiClient({
    socketPath: session.socketPath,
    timeoutMs: blocking ? blockingBudgetMs : Math.max(100, hookBudgetMs - (Date.now() - started)),
  });
  try {
    const answer = await client.request<{ error?: unknown; hookSpecificOutput?: unknown }>(
      'POST',
      `/api/v1/hooks/${event}`,
      payload,
      {
        'X-The-Loop-Session-Token': session.token,
      },
    );
    if (answer.status >= 300) {
      const message =
        typeof answer.body?.error === 'string' ? answer.body.error : `HTTP ${answer.status}`;
      stderr.write(`the-loop hook: ${message}\n`);
    } else if (blocking && answer.body?.hookSpecificOutput !== undefined) {
      context.io.stdout.write(`${JSON.stringify(answer.body)}\n`);
    }
  } catch (error) {
    stderr.write(`the-loop hook: ${asLoopError(error).message}\n`);
  }
  return 0;
};
