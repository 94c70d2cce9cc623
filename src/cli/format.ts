// How the CLI shows what serve answers, as text for a person: aligned columns, and the
// standing sessions, the instance and the status built from them.
import { standingTarget } from '../refs.js';
import type { StandingView } from '../standing/standing-types.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';
import type { StatusReport } from '../api/routes/status-routes.js';

/**
 * Left-aligned columns two spaces apart, the last one unpadded so lines carry no trailing blanks.
 * Control characters in cells are shown escaped: a cell can never move the cursor or recolour the
 * terminal of the person reading the table.
 */
export function formatColumns(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map(visible));
  const count = Math.max(0, ...cells.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, column) =>
    Math.max(0, ...cells.map((row) => length(row[column] ?? ''))),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1
            ? cell
            : cell + ' '.repeat((widths[column] ?? 0) - length(cell)),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Code points, so a name with an accent or an emoji does not shift the columns after it. */
function length(text: string): number {
  return [...text].length;
}

function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** `the-loop standing list`: one row a session, or a line saying how to get one. */
export function formatStandingList(sessions: readonly StandingView[]): string {
  if (sessions.length === 0) {
    return (
      'no standing sessions: create one with `the-loop standing create NAME`, or declare one ' +
      'under standing.sessions in the config'
    );
  }
  return formatColumns([
    ['NAME', 'SOURCE', 'STATUS', 'STATE', 'TMUX', 'HARNESS', 'AUTO', 'CWD'],
    ...sessions.map((session) => [
      session.name,
      session.source,
      session.exitStatus === undefined
        ? session.status
        : `${session.status} (${session.exitStatus})`,
      session.agentState ?? '-',
      session.tmux,
      session.harness,
      session.autoStart ? 'yes' : 'no',
      session.cwd,
    ]),
  ]);
}

/** `the-loop standing get NAME`: every field, then how to look at the pane. */
export function formatStandingView(session: StandingView, tmuxSocket: string): string {
  const rows: [string, string | undefined][] = [
    ['name', session.name],
    ['ref', session.ref],
    ['source', session.source],
    ['status', session.status],
    ['tmux', session.tmux],
    // `blocked`: a dialog or a screen the-loop cannot read waits for a person (§13).
    ['agent', session.agentState ?? undefined],
    ['harness', session.harness],
    ['cwd', session.cwd],
    ['auto-start', session.autoStart ? 'yes' : 'no'],
    ['description', session.description || undefined],
    ['conversation', session.conversationId],
    ['created', session.createdAt],
    ['started', session.startedAt],
    ['stopped', session.stoppedAt],
    ['slack', session.slack ? slackLine(session.slack) : 'no thread'],
    [
      'attach',
      session.tmux === 'live'
        ? tmuxAttachCommand(standingTarget(session.name), tmuxSocket)
        : undefined,
    ],
  ];
  return formatColumns(
    rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== ''),
  );
}

function slackLine(slack: NonNullable<StandingView['slack']>): string {
  const channel = slack.channel === '' ? 'slack.channel' : slack.channel;
  return slack.threadTs ? `${channel}, thread ${slack.threadTs}` : `${channel} (not announced yet)`;
}

/** The body of GET /api/v1/instance (docs/design.md §7.4). */
export interface InstanceReport {
  readonly name: string;
  readonly scope: { readonly mode: string; readonly workItems: readonly string[] };
  readonly managed: readonly {
    readonly ref: string;
    readonly sources?: readonly string[];
    readonly status?: string;
    readonly url?: string;
  }[];
  readonly warnings?: readonly string[];
}

/** `the-loop instance`: name and scope, then the work items it declares and the ones it manages. */
export function formatInstance(report: InstanceReport): string {
  const name = report.name === '' ? '(unnamed)' : report.name;
  const lines = [
    `instance: ${name} · scope ${report.scope.mode}`,
    ...(report.warnings ?? []).map((warning) => `  warning: ${warning}`),
    '',
    report.scope.workItems.length === 0 ? 'declared work items: none' : 'declared work items:',
    ...report.scope.workItems.map((ref) => `  ${ref}`),
    '',
    report.managed.length === 0 ? 'managed work items: none' : 'managed work items:',
  ];
  const rows = report.managed.map((item) => [
    `  ${item.ref}`,
    [...(item.sources ?? []), ...(item.status ? [item.status] : [])].join(', '),
    item.url ?? '',
  ]);
  if (rows.length > 0) lines.push(formatColumns(rows));
  return lines.join('\n');
}

/** `the-loop status`: who this instance is, its services, its sessions, and what is wrong. */
export function formatStatus(report: StatusReport): string {
  const { instance } = report;
  const name = instance.name === '' ? '(unnamed)' : instance.name;
  const lines = [
    `instance: ${name} · scope ${instance.scopeMode}`,
    ...instance.warnings.map((warning) => `  warning: ${warning}`),
    '',
    'services:',
    indent(
      formatColumns(
        report.services.map((service) => [service.name, service.state, service.detail]),
      ),
    ),
    '',
    'sessions:',
    indent(formatStandingList(report.sessions)),
    '',
  ];
  if (report.problems.length > 0) {
    lines.push('problems:', ...report.problems.map((problem) => `  - ${problem}`), '');
  }
  const count = report.problems.length === 1 ? '1 problem' : `${report.problems.length} problems`;
  lines.push(report.ok ? 'ok' : `not ok (${count})`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}
