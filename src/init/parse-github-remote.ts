export interface GithubRemote {
  readonly host: string;
  readonly owner: string;
  readonly repo: string;
}

// The same shapes schemas/config.schema.json accepts for `github.repos[].repo`.
const ownerPattern = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
const repoPattern = /^[A-Za-z0-9._-]{1,100}$/;

const urlForm =
  /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/;
const scpForm = /^(?:[^@/]+@)?([^:/]+):([^/]+)\/([^/]+?)(?:\.git)?\/?$/;

/**
 * A git remote URL as `{host, owner, repo}`: `https://github.com/octo/repo.git`,
 * `git@github.com:octo/repo.git`, `ssh://git@github.com/octo/repo`. Any host is read (GitHub
 * Enterprise Server too); anything else — a local path, a nested GitLab group — gives undefined.
 */
export function parseGithubRemote(url: string): GithubRemote | undefined {
  const text = url.trim();
  const match = urlForm.exec(text) ?? scpForm.exec(text);
  if (match === null) return undefined;
  const [, host = '', owner = '', repo = ''] = match;
  if (!ownerPattern.test(owner) || !repoPattern.test(repo) || repo === '.' || repo === '..') {
    return undefined;
  }
  return { host: host.toLowerCase(), owner, repo };
}
