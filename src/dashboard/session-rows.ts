import type { AgentState } from '../delivery/agent-state-machine.js';
import type { StandingView } from '../standing/standing-types.js';
import type { WorkItemRecord, WorkItemView } from '../workitems/workitem-types.js';

/**
 * The rows of the dashboard's "Sessions" table (docs/design.md §19): standing sessions labelled
 * `declared` or `created`, then work items, each with where it talks and its page.
 */
export interface SessionRow {
  readonly ref: string;
  /** The standing session's name, or `owner/repo#n` for a work item. */
  readonly name: string;
  readonly kind: 'declared' | 'created' | 'undeclared' | 'work item';
  readonly status: string;
  readonly exitStatus?: number;
  readonly agentState: AgentState | null;
  readonly harness: string;
  readonly cwd: string;
  readonly description: string;
  /** The dashboard page of this session. */
  readonly page: string;
  /** Where it talks: its Slack thread (or channel) or its issue. */
  readonly link?: { readonly label: string; readonly url: string };
}

export function standingRow(view: StandingView): SessionRow {
  const slack = view.slack;
  return {
    ref: view.ref,
    name: view.name,
    kind: view.source,
    status: view.status,
    ...(view.exitStatus === undefined ? {} : { exitStatus: view.exitStatus }),
    agentState: view.agentState,
    harness: view.harness,
    cwd: view.cwd,
    description: view.description,
    page: `/sessions/${encodeURIComponent(view.name)}`,
    ...(slack ? { link: slackLink(slack.channel, slack.threadTs) } : {}),
  };
}

export function workItemRow(
  view: WorkItemView,
  record: WorkItemRecord | undefined,
  agentState: AgentState | undefined,
): SessionRow {
  const item = record?.item;
  const name = item ? `${item.owner}/${item.repo}#${item.number}` : view.ref;
  return {
    ref: view.ref,
    name,
    kind: 'work item',
    status: view.status,
    ...(view.exitStatus === undefined ? {} : { exitStatus: view.exitStatus }),
    agentState:
      view.status === 'running'
        ? (agentState ?? 'idle')
        : view.status === 'exited'
          ? 'exited'
          : null,
    harness: record?.harness ?? '',
    cwd: record?.cwd ?? '',
    description: '',
    page: item
      ? `/work-items/${[item.owner, item.repo, String(item.number)].map(encodeURIComponent).join('/')}`
      : '/',
    ...(item
      ? {
          link: {
            label: `issue ${name}`,
            url: `https://${item.host}/${item.owner}/${item.repo}/issues/${item.number}`,
          },
        }
      : {}),
  };
}

/** Slack opens `/archives/<channel>/p<ts without the dot>` in the workspace the viewer is in. */
function slackLink(channel: string, threadTs: string | undefined): SessionRow['link'] {
  const base = `https://slack.com/archives/${encodeURIComponent(channel)}`;
  return threadTs
    ? { label: 'Slack thread', url: `${base}/p${threadTs.replace('.', '')}` }
    : { label: 'Slack channel', url: base };
}
