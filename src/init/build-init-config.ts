import type { GithubRemote } from './parse-github-remote.js';

export interface InitChoices {
  /** The origin remote, when it is a GitHub repository. */
  readonly remote?: GithubRemote;
  /** `claude` when Claude Code is on PATH, else `shell`. */
  readonly harness: 'claude' | 'shell';
}

const q = (text: string) => JSON.stringify(text);

/**
 * The `.the-loop/config.yaml` that `the-loop init` writes: the repository's own GitHub repo, the
 * default harness, and every permission list empty (nobody may act until the operator says who).
 * Paths are relative to `.the-loop/`, so `..` is the repository root.
 */
export function buildInitConfig(choices: InitChoices): string {
  const { remote, harness } = choices;
  const name = remote ? `${remote.owner}/${remote.repo}` : undefined;
  const repos = name
    ? ['  repos:', `    - repo: ${q(name)}`, '      path: ".." # the repository root']
    : ['  repos: [] # no GitHub origin remote was found: add { repo: owner/name, path: .. }'];
  const harnessNote =
    harness === 'claude'
      ? '# Claude Code was on PATH when this was written'
      : '# Claude Code was not on PATH: switch to claude once it is installed';
  return [
    `# the-loop's config${name ? ` for ${name}` : ''}, written by \`the-loop init\`.`,
    '# `the-loop config check` prints what it resolves to; `the-loop doctor` checks the setup.',
    '# Relative paths are relative to this folder (.the-loop/), so ".." is the repository root.',
    'instance:',
    '  name: "" # give each machine a name when several share the repository',
    '  scope:',
    '    mode: open',
    '    workItems: []',
    'state:',
    '  root: state # .the-loop/state; .the-loop/.gitignore keeps it out of git',
    'defaults:',
    `  harness: ${harness} ${harnessNote}`,
    '  cwd: ".."',
    'standing:',
    '  autoStart: true',
    '  allowedRoots: [".."]',
    '  sessions: [] # `the-loop standing create NAME` adds one while serve runs',
    'slack:',
    '  mode: socket',
    '  authorizedUsers: [] # Slack user ids (U012ABC) who may talk to sessions; empty = nobody',
    'github:',
    ...repos,
    '  authorizedUsers: [] # GitHub logins who may start and talk to sessions; empty = nobody',
    '',
  ].join('\n');
}

/** What to do after init, in order. */
export function initNextSteps(choices: InitChoices): string[] {
  const enterprise =
    choices.remote && choices.remote.host !== 'github.com'
      ? ` (and GITHUB_API_URL=https://${choices.remote.host}/api/v3)`
      : '';
  return [
    '1. Run `the-loop doctor`: it checks Node, tmux, the harness and the tokens, each with its remedy.',
    '2. Turn on the surfaces you want: `the-loop manifest` gives the Slack app to create, then set ' +
      `SLACK_BOT_TOKEN and SLACK_APP_TOKEN; set GITHUB_TOKEN${enterprise} for GitHub; add yourself ` +
      'to slack.authorizedUsers / github.authorizedUsers.',
    '3. Start it with `the-loop serve`, then `the-loop standing create NAME` (or `/loop create NAME` in Slack).',
  ];
}
