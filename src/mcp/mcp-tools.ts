import { z } from 'zod';
import { LoopError } from '../errors.js';
import type { Loop } from '../sdk/create-loop.js';

/**
 * The tools of `the-loop mcp` (docs/design.md §20, docs/mcp.md), as data: each reads or speaks
 * through the SDK client and answers JSON. None creates, deletes, starts or stops a session or
 * decides a permission: an agent is untrusted input (§18), so it may look and talk, not control.
 */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, z.ZodType>;
  /** Only offered inside a session (its THE_LOOP_SESSION_TOKEN is set). */
  readonly sessionOnly?: boolean;
  run(loop: Loop, input: Record<string, unknown>, facts: McpFacts): Promise<unknown>;
}

export interface McpFacts {
  /** The session this server runs in (`standing:sup`), when it runs in one. */
  readonly session?: string;
  /** Who to name in a say's header when not in a session. */
  readonly person: string;
}

/** One row of `list_sessions`: a standing session or a work item, told apart by `kind`. */
export interface SessionSummary {
  readonly kind: 'standing' | 'work-item';
  /** The standing session's name, or the work item's ref: what `say` and `get_session` take. */
  readonly name: string;
  readonly ref: string;
  readonly status: string;
  readonly agentState: string | null;
  readonly description?: string;
}

const name = z
  .string()
  .min(1)
  .max(300)
  .describe(
    'a standing session name such as `reviewer`, or a work item ref `github:owner/repo#12`',
  );
const text = z.string().min(1).max(100_000);

export const mcpTools: readonly McpTool[] = [
  {
    name: 'list_sessions',
    description:
      'List every session of this the-loop instance: standing sessions (by name) and work-item ' +
      'sessions (by ref, `github:owner/repo#12`), each with its kind, status (running, stopped, ' +
      'exited) and agent state (idle, busy, waiting for a permission, starting, blocked by a ' +
      'dialog). Use it to find which session to message with `say`; only a running one can take ' +
      'a message.',
    inputSchema: {},
    async run(loop) {
      const [standing, workItems] = await Promise.all([
        loop.standing.list(),
        loop.workItems.list(),
      ]);
      const sessions: SessionSummary[] = [
        ...standing.map((session) => ({
          kind: 'standing' as const,
          name: session.name,
          ref: session.ref,
          status: session.status,
          agentState: session.agentState,
          ...(session.description ? { description: session.description } : {}),
        })),
        ...workItems.map((item) => ({
          kind: 'work-item' as const,
          name: item.ref,
          ref: item.ref,
          status: item.status,
          agentState: item.agentState ?? null,
        })),
      ];
      return { sessions };
    },
  },
  {
    name: 'get_session',
    description:
      'Everything the-loop knows about one session: for a standing session (give its name) its ' +
      'description, harness, folder, status, agent state and Slack thread; for a work item (give ' +
      'its ref, `github:owner/repo#12`) its status and who started it.',
    inputSchema: { name },
    async run(loop, input) {
      const wanted = String(input['name']);
      if (!wanted.startsWith('github:')) return loop.standing.get(wanted);
      const found = (await loop.workItems.list()).find(
        (item) => item.ref.toLowerCase() === wanted.toLowerCase(),
      );
      if (found) return found;
      throw new LoopError(
        'session_unknown',
        `no work-item session ${wanted} on this instance: list_sessions shows the ones there are`,
      );
    },
  },
  {
    name: 'say',
    description:
      "Send a message to another standing session's agent, typed into its terminal like a " +
      "person's. Inside a session it arrives framed as from you (`[agent:<your name> · tag]`). " +
      'Answers the outcome: `delivered` (the agent took it), `queued` (it is busy and takes it ' +
      'when its turn ends), `held` (a dialog or permission request is open; it goes in after), ' +
      '`unconfirmed` (typed, not confirmed). Not to yourself (use `post` to answer your ' +
      'people); a few messages a minute at most, so do not answer an agent that only answers you.',
    inputSchema: { name, text },
    async run(loop, input, facts) {
      const answer = await loop.standing.say(String(input['name']), String(input['text']), {
        actor: `${facts.person} via mcp`,
      });
      return answer;
    },
  },
  {
    name: 'get_instance',
    description:
      'This the-loop instance: its name, its scope mode (open, addressed, locked) and the GitHub ' +
      'work items it manages.',
    inputSchema: {},
    run: (loop) => loop.instance(),
  },
  {
    name: 'post',
    description:
      'Reply to the people this session works for: its Slack thread and, for a work item, a ' +
      'comment on its GitHub issue or pull request (as `the-loop post`). Answers where it went.',
    inputSchema: { text },
    sessionOnly: true,
    run: (loop, input) => loop.post(String(input['text'])),
  },
];
