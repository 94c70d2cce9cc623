import { asLoopError } from '../errors.js';
import type { StandingView } from '../standing/standing-types.js';
import type { CommandContext } from './command-context.js';
import { sessionPath } from './session-path.js';

export interface VerbResult {
  readonly name: string;
  readonly outcome?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * `start`, `stop` or `restart` on each named session in turn, printing one line per session as
 * it finishes (or, with --json, the list at the end). One failure does not stop the others; the
 * exit code is 1 when any failed. `serve` not running ends the whole run.
 */
export async function applyVerb(
  context: CommandContext,
  verb: 'start' | 'stop' | 'restart',
  names: readonly string[],
): Promise<number> {
  const results: VerbResult[] = [];
  for (const name of names) {
    const result = await context
      .api<{ outcome: string; session: StandingView }>('POST', sessionPath(name, verb))
      .then(
        (answer): VerbResult => ({ name, outcome: answer.outcome }),
        (thrown: unknown): VerbResult => {
          const error = asLoopError(thrown);
          // With serve gone every other session would fail the same way: say it once.
          if (error.code === 'serve_not_running') throw error;
          return { name, error: { code: error.code, message: error.message } };
        },
      );
    results.push(result);
    if (context.json) continue;
    if (result.error) context.io.stderr.write(`${name}: error: ${result.error.message}\n`);
    else context.print(`${name}: ${result.outcome ?? ''}`);
  }
  if (context.json) context.printJson(results);
  return results.some((result) => result.error) ? 1 : 0;
}
