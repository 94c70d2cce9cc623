import { escapeInvisible } from './quote.js';
import type { Config, HarnessConfig, StandingSessionConfig } from './types.js';

const labelWidth = 12;

/**
 * The text `the-loop config check` prints: what the config resolved to, one block a line, with
 * every default applied and every path absolute. (`--json` prints the Config object itself.)
 */
export function formatConfigCheck(config: Config): string {
  const lines: string[] = [
    row('config', config.configPath),
    ...instanceLines(config),
    row('state root', config.state.root),
    row(
      'tmux',
      config.tmux.socket === '' ? 'the default tmux server' : `tmux -L ${config.tmux.socket}`,
    ),
    row('harnesses', ''),
    ...Object.entries(config.harnesses).map(([name, harness]) =>
      indented(name, describeHarness(harness)),
    ),
    row('defaults', `harness ${config.defaults.harness}, cwd ${config.defaults.cwd}`),
    row(
      'standing',
      `start auto-start sessions on serve: ${yesNo(config.standing.autoStart)}; ` +
        `allowed roots: ${list(config.standing.allowedRoots)}`,
    ),
    ...config.standing.sessions.flatMap(sessionLines),
    ...(config.standing.sessions.length === 0 ? [indented('', 'no declared sessions')] : []),
    row(
      'delivery',
      `ready timeout ${config.delivery.readyTimeoutMs} ms, submit delay ` +
        `${config.delivery.submitDelayMs} ms, confirm timeout ${config.delivery.confirmTimeoutMs} ms`,
    ),
    row('slack', slackLine(config.slack)),
    row('github', githubLine(config.github)),
    row('http', `${config.http.host}:${config.http.port}`),
    row(
      'api',
      config.api.listen === '' ? 'control socket only (TCP off)' : `also TCP ${config.api.listen}`,
    ),
  ];
  return lines.map((line) => escapeInvisible(line.trimEnd())).join('\n');
}

function instanceLines(config: Config): string[] {
  const { name, scope } = config.instance;
  const items =
    scope.workItems.length === 0 ? 'no declared work items' : `declared: ${list(scope.workItems)}`;
  const lines = [
    row('instance', `${name === '' ? '(unnamed)' : name}, scope ${scope.mode}, ${items}`),
  ];
  if (config.instanceWarnings.length > 0) {
    lines.push(indented('', `locked because of the instance block (fix these to unlock):`));
    lines.push(...config.instanceWarnings.map((warning) => indented('', `- ${warning}`)));
  }
  return lines;
}

function describeHarness(harness: HarnessConfig): string {
  const role = harness.agent ? 'agent' : 'plain';
  const ready = harness.readyPattern === undefined ? '' : `, ready when /${harness.readyPattern}/`;
  return `${harness.kind}, ${role}, interrupt ${harness.interruptKey}${ready}: ${words([harness.command, ...harness.args])}`;
}

function sessionLines(session: StandingSessionConfig): string[] {
  const slack =
    session.slack === false
      ? 'no Slack thread'
      : `Slack thread in ${session.slack.channel === '' ? 'slack.channel' : session.slack.channel}`;
  const args = session.args.length === 0 ? '' : ` ${words(session.args)}`;
  const start = session.autoStart ? 'auto-start' : 'manual start';
  const lines = [
    indented(session.name, `${session.harness}${args} in ${session.cwd}, ${start}, ${slack}`),
  ];
  if (session.description !== '') lines.push(indented('', session.description));
  if (session.prompt !== undefined)
    lines.push(indented('', `prompt: ${session.prompt.length} characters`));
  if (session.promptFile !== undefined)
    lines.push(indented('', `prompt file: ${session.promptFile}`));
  return lines;
}

function slackLine(slack: Config['slack']): string {
  if (!slack.enabled) return 'off (slack.enabled is false)';
  const users = slack.authorizedUsers.length === 0 ? 'nobody' : list(slack.authorizedUsers);
  const channel = slack.channel === '' ? '(none)' : slack.channel;
  return (
    `on when SLACK_BOT_TOKEN is set; ${slack.mode} mode, command ${slack.command}, ` +
    `channel ${channel}, authorized: ${users}`
  );
}

function githubLine(github: Config['github']): string {
  const repos =
    github.repos.length === 0
      ? 'no repos'
      : `repos: ${github.repos.map((entry) => `${entry.repo} → ${entry.path}`).join(', ')}`;
  const users = github.authorizedUsers.length === 0 ? 'nobody' : list(github.authorizedUsers);
  const unsigned = github.webhook.allowUnsigned ? 'unsigned allowed on loopback' : 'signed only';
  const poll = github.poll.enabled ? `every ${github.poll.intervalSeconds} s` : 'off';
  return (
    `${repos}; authorized: ${users}; keyword ${github.keyword}; ` +
    `webhook ${github.webhook.path} (${unsigned}); poll ${poll}`
  );
}

function row(label: string, text: string): string {
  return `${label.padEnd(labelWidth)}${text}`;
}

function indented(label: string, text: string): string {
  return `  ${label.padEnd(labelWidth - 2)}${text}`;
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

function list(values: readonly string[]): string {
  return values.length === 0 ? '(none)' : values.join(', ');
}

/** Shows an argument vector the way a person would type it, quoting only what needs it. */
function words(values: readonly string[]): string {
  return values
    .map((value) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : JSON.stringify(value)))
    .join(' ');
}
