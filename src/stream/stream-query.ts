import { LoopError } from '../errors.js';
import { parseStandingRef, parseWorkItemRef, standingRef, workItemRef } from '../refs.js';

/*
 * What a client of `GET /api/v1/stream` asks for (docs/design.md §19), and which events that lets
 * through: pure functions, table-tested in test/unit/stream.
 */

export interface StreamFilter {
  /** Only events about this session (`ref`, or `standing:<name>` for `standing.*` events). */
  readonly ref?: string;
  /** Only these event names; a trailing `*` matches every name that starts with what precedes. */
  readonly events?: readonly string[];
}

export interface StreamQuery {
  /** Replay the events after this `seq` before going live; absent: live only. */
  readonly since?: number;
  readonly filter: StreamFilter;
}

const parameters = ['since', 'ref', 'events'] as const;
const seqPattern = /^(?:0|[1-9][0-9]{0,15})$/;
const eventPattern = /^(?:\*|[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*(?:\.?\*)?)$/;
const maxPatterns = 50;

function refuse(message: string): LoopError {
  return new LoopError('bad_request', message);
}

function parseSeq(value: string, where: string): number {
  const seq = Number(value);
  if (!seqPattern.test(value) || !Number.isSafeInteger(seq)) {
    throw refuse(
      `${where} must be a whole number ≥ 0: the \`id:\` of the last event you received ` +
        '(e.g. `?since=120`); leave it out to get live events only',
    );
  }
  return seq;
}

/** The canonical ref events carry, or a refusal naming the two shapes a ref takes. */
function parseRef(value: string): string {
  const name = parseStandingRef(value);
  if (name !== undefined) return standingRef(name);
  const item = parseWorkItemRef(value);
  if (item !== undefined) return workItemRef(item);
  throw refuse(
    '`ref` must name one session: `standing:<name>` or `github:owner/repo#<n>` ' +
      '(e.g. `?ref=standing:alpha`)',
  );
}

function parseEvents(value: string): string[] {
  const names = value.split(',').map((name) => name.trim());
  const bad = names.find((name) => !eventPattern.test(name));
  if (bad !== undefined || names.length > maxPatterns) {
    throw refuse(
      `\`events\` must be a comma list of at most ${maxPatterns} event names, each optionally ` +
        'ending in `*` (e.g. `?events=agent.state,delivery.*`)' +
        (bad === undefined ? '' : `; \`${bad.slice(0, 60)}\` is not one`),
    );
  }
  return names;
}

/**
 * Reads the query string and the `Last-Event-ID` header, which wins over `?since=` (a browser's
 * EventSource sends it on reconnecting, with the URL it first opened). Throws a `bad_request`
 * LoopError naming the remedy for anything it cannot use, an unknown parameter included.
 */
export function parseStreamQuery(query: URLSearchParams, lastEventId?: string): StreamQuery {
  for (const key of new Set(query.keys())) {
    if (!(parameters as readonly string[]).includes(key)) {
      throw refuse(
        `unknown parameter \`${key.slice(0, 40)}\` on /api/v1/stream: use since, ref or events`,
      );
    }
    if (query.getAll(key).length > 1) {
      throw refuse(`\`${key}\` is given more than once: give it once (events takes a comma list)`);
    }
  }
  const since =
    lastEventId !== undefined && lastEventId !== ''
      ? parseSeq(lastEventId.trim(), 'the Last-Event-ID header')
      : query.has('since')
        ? parseSeq(query.get('since') ?? '', '`since`')
        : undefined;
  const ref = query.get('ref');
  const events = query.get('events');
  return {
    ...(since === undefined ? {} : { since }),
    filter: {
      ...(ref === null ? {} : { ref: parseRef(ref) }),
      ...(events === null ? {} : { events: parseEvents(events) }),
    },
  };
}

function nameMatches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** Whether an event line passes the filter; `fields` is the parsed line. */
export function matchesFilter(
  filter: StreamFilter,
  event: string,
  fields: Readonly<Record<string, unknown>>,
): boolean {
  if (filter.events !== undefined && !filter.events.some((pattern) => nameMatches(pattern, event)))
    return false;
  if (filter.ref === undefined) return true;
  if (fields['ref'] === filter.ref) return true;
  const name = fields['name'];
  return (
    event.startsWith('standing.') && typeof name === 'string' && standingRef(name) === filter.ref
  );
}

/** One event in the SSE wire format: `id:`, `event:`, `data:` and the blank line that ends it. */
export function formatSseEvent(seq: number, event: string, line: string): string {
  return `id: ${seq}\nevent: ${event}\ndata: ${line}\n\n`;
}

/** The comment that keeps proxies from closing a quiet stream. */
export const keepAliveComment = ': keep-alive\n\n';
