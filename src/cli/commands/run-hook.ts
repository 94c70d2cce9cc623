import { createApiClient } from '../../api/create-api-client.js';
import { asLoopError } from '../../errors.js';
import type { CommandHandler } from '../command-context.js';
import { hookAnswerText, hookPayload, hookWaitMs } from '../../hooks/hook-shim.js';
import { readStreamText } from '../read-stream-text.js';
import { sessionEnv } from '../input.js';

const stdinTimeoutMs = 300;
const maxPayloadBytes = 1024 * 1024;

/**
 * `the-loop hook EVENT [--wait S]` (docs/design.md §8): forwards the hook JSON to serve and prints serve's
 * answer on stdout, which Claude Code reads as the hook's output (empty when serve has nothing to
 * say). It must never block or fail the agent, so it always exits 0 and gives up on stdin and on
 * serve in time; problems get one line on stderr. bin/the-loop-hook is its shell twin, which the
 * settings call: both post the same request and print the same answer (a test holds them equal).
 */
export const runHook: CommandHandler = async (context) => {
  const started = Date.now();
  const { stderr, stdout } = context.io;
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
  const event = encodeURIComponent(context.args['event'] ?? '');
  const client = createApiClient({
    socketPath: session.socketPath,
    // The wait covers reading stdin too, so a quick hook is done within a second with node's start.
    timeoutMs: Math.max(100, hookWaitMs(context.stringFlag('wait')) - (Date.now() - started)),
  });
  try {
    const answer = await client.request<unknown>('POST', `/api/v1/hooks/${event}`, payload, {
      'X-The-Loop-Session-Token': session.token,
    });
    if (answer.status >= 200 && answer.status < 300) {
      stdout.write(hookAnswerText(answer.body));
    } else {
      const body = answer.body as { error?: unknown } | undefined;
      const message = typeof body?.error === 'string' ? body.error : `HTTP ${answer.status}`;
      stderr.write(`the-loop hook: ${message}\n`);
    }
  } catch (error) {
    stderr.write(`the-loop hook: ${asLoopError(error).message}\n`);
  }
  return 0;
};
