import { execFile } from 'node:child_process';

function git(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env, timeout: 10_000 }, (error, stdout) => {
      // Not a repository, no such remote, no git at all: each is "no answer" to the caller.
      resolve(error === null ? stdout.trim() : undefined);
    });
  });
}

/** The top folder of the git work tree `cwd` is in, or undefined outside one. */
export function readGitTopLevel(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return git(['rev-parse', '--show-toplevel'], cwd, env);
}

/** The URL of the `origin` remote, or undefined when there is none. */
export function readGitOrigin(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return git(['remote', 'get-url', 'origin'], cwd, env);
}
