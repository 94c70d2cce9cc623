import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createServeFixture, type ServeFixture } from '../../helpers/run-serve.js';

export const apiToken = 'browser-tier-token-6f1d0c9a27b84e3f';

export interface DashboardServe {
  readonly serve: ServeFixture;
  /** `http://127.0.0.1:<port>`, the dashboard's own origin. */
  readonly origin: string;
  /** A fresh one-time sign-in URL from `the-loop dashboard`. */
  signInUrl(): Promise<string>;
  /** The events serve recorded, as parsed lines. */
  events(): Promise<Array<Record<string, unknown>>>;
  dispose(): Promise<void>;
}

/**
 * A real `the-loop serve` with its dashboard on a free loopback port, the API token set, and the
 * given standing sessions running the fake agent.
 */
export async function startDashboardServe(
  options: { sessions?: string[]; env?: Record<string, string> } = {},
): Promise<DashboardServe> {
  const serve = await createServeFixture(
    () => ({
      dashboard: { listen: '127.0.0.1:0' },
      standing: {
        autoStart: true,
        allowedRoots: ['work'],
        sessions: (options.sessions ?? []).map((name) => ({ name, slack: false })),
      },
    }),
    { env: { THE_LOOP_API_TOKEN: apiToken, ...options.env } },
  );
  await serve.start();
  const signInUrl = async (): Promise<string> => {
    const result = await serve.cli(['dashboard']);
    if (result.exitCode !== 0) throw new Error(`the-loop dashboard failed: ${result.stderr}`);
    return result.stdout.trim();
  };
  const origin = new URL(await signInUrl()).origin;
  return {
    serve,
    origin,
    signInUrl,
    async events() {
      const text = await readFile(path.join(serve.stateRoot, 'events.jsonl'), 'utf8');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    dispose: () => serve.dispose(),
  };
}
