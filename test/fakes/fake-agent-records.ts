/**
 * Reads what the fake agent (`test/fakes/fake-agent.mjs`) recorded under its `FAKE_AGENT_HOME`.
 * The agent appends one JSON line per record; a line still being written (no newline yet) is not
 * returned, so a reader never sees half a record.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface PromptRecord {
  ts: number;
  /** `process.hrtime.bigint()` at submission, as a string: comparable across processes. */
  hrtime: string;
  sessionId: string;
  prompt: string;
  pid: number;
}

export interface ArgvRecord {
  ts: number;
  pid: number;
  argv: string[];
  cwd: string;
  env: {
    THE_LOOP_SESSION: string | null;
    THE_LOOP_INSTANCE: string | null;
    THE_LOOP_SOCKET: string | null;
  };
  /** Whether THE_LOOP_SESSION_TOKEN was set; its value is never recorded. */
  hasSessionToken: boolean;
}

interface EventBase {
  ts: number;
  pid: number;
  /** null when the agent refused to start before it had a conversation. */
  sessionId: string | null;
}

export type EventRecord = EventBase &
  (
    | { event: 'started'; source: 'startup' | 'resume' }
    | { event: 'ready' }
    | { event: 'dropped'; bytes: number }
    | { event: 'interrupt'; key: 'escape' | 'ctrl-c'; turnActive: boolean }
    | { event: 'exit'; code: number; reason: string }
    | { event: 'refused'; message: string; code: number }
    | { event: 'trust_dialog' | 'permission_dialog' | 'unknown_dialog' }
    | { event: 'unknown_dialog_key'; bytes: number }
    /** The servers of `--mcp-config`, as the file named them. */
    | { event: 'mcp_config'; path: string; servers: Record<string, unknown> }
    | {
        event: 'trust_dialog_key' | 'permission_dialog_key';
        bytes: number;
        yes: boolean;
        refused: boolean;
        /** 2.1.332's `3`: "Yes, and switch to auto mode". */
        auto?: boolean;
      }
    | { event: 'dialog_key'; bytes: number }
    | {
        event: 'permission_answer';
        tool: string;
        arg: string;
        behavior: 'allow' | 'deny' | 'none' | 'terminal';
        message?: string;
        updatedPermissions?: unknown[];
        key?: string;
      }
  );

export type EventName = EventRecord['event'];

export interface HookErrorRecord {
  ts: number;
  pid: number;
  sessionId: string;
  hookEvent: string;
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stderr: string;
  error?: string;
}

export interface TranscriptRecord {
  type: 'user' | 'assistant';
  sessionId: string;
  uuid: string;
  timestamp: string;
  message: { role: 'user' | 'assistant'; content: string | { type: string; text: string }[] };
}

/**
 * What the fake agent, acting as a version (`FAKE_AGENT_VERSION`), would send the model: per turn
 * the user text blocks (a queued prompt each, a collapsed paste wrapped as the version wraps it),
 * and per prompt injected into a running turn the message that carries it. `model.jsonl`.
 */
export interface ModelRecord {
  ts: number;
  sessionId: string;
  promptId: string;
  role: 'user' | 'system';
  texts: string[];
}

const POLL_MS = 20;

export function readPrompts(home: string): Promise<PromptRecord[]> {
  return readJsonLines<PromptRecord>(path.join(home, 'prompts.jsonl'));
}

export function readModel(home: string): Promise<ModelRecord[]> {
  return readJsonLines<ModelRecord>(path.join(home, 'model.jsonl'));
}

export function readArgv(home: string): Promise<ArgvRecord[]> {
  return readJsonLines<ArgvRecord>(path.join(home, 'argv.jsonl'));
}

export function readEvents(home: string): Promise<EventRecord[]> {
  return readJsonLines<EventRecord>(path.join(home, 'events.jsonl'));
}

export function readHookErrors(home: string): Promise<HookErrorRecord[]> {
  return readJsonLines<HookErrorRecord>(path.join(home, 'hook-errors.jsonl'));
}

export function readTranscript(home: string, sessionId: string): Promise<TranscriptRecord[]> {
  return readJsonLines<TranscriptRecord>(path.join(home, 'transcripts', `${sessionId}.jsonl`));
}

/** Waits (polling: the writer is another process) until at least `count` prompts are recorded. */
export async function waitForPrompts(
  home: string,
  count: number,
  timeoutMs: number,
): Promise<PromptRecord[]> {
  return waitFor(
    () => readPrompts(home),
    (prompts) => prompts.length >= count,
    timeoutMs,
    {
      what: `${count} prompt(s) in ${home}`,
    },
  );
}

/** Waits until an event of that name is recorded and returns the first one. */
export async function waitForEvent<Name extends EventName>(
  home: string,
  event: Name,
  timeoutMs: number,
): Promise<Extract<EventRecord, { event: Name }>> {
  const isMatch = (record: EventRecord): record is Extract<EventRecord, { event: Name }> =>
    record.event === event;
  const events = await waitFor(
    () => readEvents(home),
    (records) => records.some(isMatch),
    timeoutMs,
    { what: `event "${event}" in ${home}` },
  );
  const found = events.find(isMatch);
  if (found === undefined) throw new Error(`event "${event}" vanished from ${home}`);
  return found;
}

/** Waits until a JSON-lines file (e.g. one a test's hook appends to) has at least `count` records. */
export async function waitForJsonLines<T>(
  file: string,
  count: number,
  timeoutMs: number,
): Promise<T[]> {
  return waitFor(
    () => readJsonLines<T>(file),
    (records) => records.length >= count,
    timeoutMs,
    {
      what: `${count} line(s) in ${file}`,
    },
  );
}

export async function readJsonLines<T>(file: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return [];
    throw error;
  }
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

async function waitFor<T>(
  read: () => Promise<T[]>,
  done: (records: T[]) => boolean,
  timeoutMs: number,
  { what }: { what: string },
): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const records = await read();
    if (done(records)) return records;
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; have: ${JSON.stringify(records)}`,
      );
    }
    await delay(POLL_MS);
  }
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
