import { spawn } from 'node:child_process';
import type { CommandHandler } from '../command-context.js';

/**
 * `the-loop dashboard [--open]` (docs/design.md §19): asks serve, over the control socket, for a
 * one-time sign-in URL and prints it as one line; `--open` also hands it to the desktop's browser.
 */
export const runDashboard: CommandHandler = async (context) => {
  const answer = await context.api<{ url: string; expiresAt: string }>(
    'POST',
    '/api/v1/dashboard/sign-in',
  );
  if (context.json) context.printJson(answer);
  else context.print(answer.url);
  if (context.hasFlag('open')) openInBrowser(answer.url, context.io.env, context.io.stderr);
  return 0;
};

function openInBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  stderr: { write(text: string): unknown },
): void {
  const command = process.platform === 'darwin' ? 'open' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore', env });
  child.once('error', () => {
    stderr.write(`could not run ${command}: open the URL above in your browser\n`);
  });
  child.unref();
}
