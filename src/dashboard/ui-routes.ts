import type { Route } from '../api/route.js';
import { sayLine } from '../delivery/first-answer.js';
import { objectBody } from '../api/routes/standing-routes.js';
import type { ServiceState } from '../api/routes/status-routes.js';
import type { Config } from '../config/types.js';
import type { AgentState } from '../delivery/agent-state-machine.js';
import type { SayAnswer } from '../delivery/first-answer.js';
import { LoopError } from '../errors.js';
import { parseStandingRef, parseWorkItemRef, workItemTarget } from '../refs.js';
import type { StandingView } from '../standing/standing-types.js';
import type { WorkItemRecord, WorkItemView } from '../workitems/workitem-types.js';
import { ansiToLines } from './ansi-segments.js';
import { standingRow, workItemRow } from './session-rows.js';

/**
 * The dashboard's own JSON (docs/dashboard.md): not API (docs/design.md §23: the pages may
 * change), so not in schemas/openapi.yaml, and served only on the dashboard's listener.
 */
export function uiRoutes(options: {
  readonly config: Config;
  readonly services: () => readonly ServiceState[];
  readonly standing: () => Promise<StandingView[]>;
  readonly workItems: () => Promise<{ views: WorkItemView[]; records: WorkItemRecord[] }>;
  readonly agentState: (tmuxName: string) => AgentState | undefined;
  /** The pane's text with its colour escapes, through the shared terminal cache. */
  readonly terminal: (ref: string) => Promise<string>;
  readonly say: (ref: string, text: string, signal: AbortSignal) => Promise<SayAnswer>;
  /** The `seq` of the newest event written: a page replays the stream from a little before it. */
  readonly lastSeq: () => number;
}): Route[] {
  return [
    {
      method: 'GET',
      path: '/ui/overview',
      operationId: 'uiOverview',
      auth: 'operator',
      handler: async () => {
        const [standing, workItems] = await Promise.all([options.standing(), options.workItems()]);
        const byRef = new Map(workItems.records.map((record) => [record.ref, record]));
        return {
          status: 200,
          body: {
            instance: {
              name: options.config.instance.name,
              scope: options.config.instance.scope.mode,
            },
            surfaces: headerSurfaces(options.services()),
            harnesses: Object.keys(options.config.harnesses),
            defaultHarness: options.config.defaults.harness,
            seq: options.lastSeq(),
            sessions: [
              ...standing.map(standingRow),
              ...workItems.views.map((view) => {
                const record = byRef.get(view.ref);
                const state = record ? options.agentState(workItemTarget(record.item)) : undefined;
                return workItemRow(view, record, state);
              }),
            ],
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/ui/terminal/{ref}',
      operationId: 'uiTerminal',
      auth: 'operator',
      handler: async ({ params }) => {
        const ref = sessionRef(params['ref'] ?? '');
        return { status: 200, body: { ref, lines: ansiToLines(await options.terminal(ref)) } };
      },
    },
    {
      method: 'POST',
      path: '/ui/say/{ref}',
      operationId: 'uiSay',
      auth: 'operator',
      handler: async ({ params, body, signal }) => {
        const ref = sessionRef(params['ref'] ?? '');
        const text = objectBody(body)['text'];
        if (typeof text !== 'string' || text.trim() === '') {
          throw new LoopError('bad_request', 'write a message first');
        }
        const answer = await options.say(ref, text, signal);
        // Worded as `the-loop standing say` prints it (docs/design.md §17).
        const name = parseStandingRef(ref) ?? ref;
        return { status: 200, body: { ...answer, line: sayLine(name, answer) } };
      },
    },
  ];
}

function sessionRef(ref: string): string {
  if (parseStandingRef(ref) === undefined && parseWorkItemRef(ref) === undefined) {
    throw new LoopError('invalid_ref', `\`${ref.slice(0, 80)}\` is not a session ref`);
  }
  return ref;
}

/** Slack, GitHub and the fleet as the header shows them: on, off or degraded, with why. */
export function headerSurfaces(
  services: readonly ServiceState[],
): { name: string; state: string; detail: string }[] {
  const of = (name: string, label: string, off: string) => {
    const rows = services.filter((row) => row.name === name);
    const worst = rows.find((row) => row.state !== 'ok') ?? rows[0];
    if (worst === undefined) return { name: label, state: 'off', detail: off };
    const state = worst.state === 'ok' ? 'on' : worst.state;
    return { name: label, state, detail: worst.detail };
  };
  return [
    of('slack', 'Slack', 'Slack is off'),
    of('github', 'GitHub', 'GitHub is off'),
    // No fleet row: this instance runs alone (no `fleet` block).
    of('fleet', 'fleet', 'the fleet is not configured'),
  ];
}
