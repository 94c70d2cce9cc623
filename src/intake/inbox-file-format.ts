import { isValidRecordKey } from '../state/record-key.js';
import { isTempFileName } from '../state/temp-file-name.js';

/**
 * The inbox folder's files, and how their text maps to values (pure: no I/O).
 *
 * - `batch-<first key>.json`: one group commit, `{"version":1,"entries":[{"key","value"},…]}`.
 * - `batch-<first key>.done.json`: the keys of that batch already handled, `{"version":1,"done":[…]}`.
 * - `<key>.json`: one bare value, as inboxes wrote before group commit (read, never written).
 * - `<key>.mark`: what the entry's delivery wrote down right before its Enter, `{"version":1,"mark":…}`
 *   (src/delivery/submit-mark.ts); it goes when the entry is done.
 */
export type InboxFileName =
  | { readonly kind: 'batch'; readonly id: string }
  | { readonly kind: 'done'; readonly id: string }
  | { readonly kind: 'legacy'; readonly key: string }
  | { readonly kind: 'mark'; readonly key: string }
  | { readonly kind: 'temp' }
  | { readonly kind: 'other' };

export interface DecodedBatch<T> {
  /** Every key in the file, valid value or not: the batch goes only once all of them are done. */
  readonly keys: readonly string[];
  readonly entries: ReadonlyArray<{ readonly key: string; readonly value: T }>;
  /** Keys whose value failed validation. */
  readonly invalid: readonly string[];
}

export type Decoded<V> =
  { readonly ok: true; readonly value: V } | { readonly ok: false; readonly reason: string };

const formatVersion = 1;
const batchName = /^batch-(\d{15}-\d{6}-\d+)\.json$/;
const doneName = /^batch-(\d{15}-\d{6}-\d+)\.done\.json$/;
const legacySuffix = '.json';
const markSuffix = '.mark';

export const batchFileName = (id: string): string => `batch-${id}.json`;
export const doneFileName = (id: string): string => `batch-${id}.done.json`;
export const legacyFileName = (key: string): string => `${key}${legacySuffix}`;
export const markFileName = (key: string): string => `${key}${markSuffix}`;

export function classifyInboxFile(name: string): InboxFileName {
  // A crashed writer's temp file may hold a whole batch that was never committed: never read it.
  if (isTempFileName(name)) return { kind: 'temp' };
  const batch = batchName.exec(name);
  if (batch?.[1]) return { kind: 'batch', id: batch[1] };
  const done = doneName.exec(name);
  if (done?.[1]) return { kind: 'done', id: done[1] };
  for (const [suffix, kind] of [
    [legacySuffix, 'legacy'],
    [markSuffix, 'mark'],
  ] as const) {
    if (!name.endsWith(suffix)) continue;
    const key = name.slice(0, -suffix.length);
    if (isValidRecordKey(key)) return { kind, key };
  }
  return { kind: 'other' };
}

/** One entry per line, so an operator can read a batch without a JSON tool. */
export function encodeBatch(
  entries: ReadonlyArray<{ readonly key: string; readonly value: unknown }>,
): string {
  const lines = entries.map(({ key, value }) => JSON.stringify({ key, value }));
  return `{"version":${formatVersion},"entries":[\n${lines.join(',\n')}\n]}\n`;
}

export function encodeDone(keys: Iterable<string>): string {
  return `${JSON.stringify({ version: formatVersion, done: [...keys].sort() })}\n`;
}

export function encodeMark(mark: unknown): string {
  return `${JSON.stringify({ version: formatVersion, mark })}\n`;
}

export function decodeMark(text: string): Decoded<unknown> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  return isVersioned(parsed.value) && 'mark' in parsed.value
    ? { ok: true, value: parsed.value['mark'] }
    : { ok: false, reason: `not a version ${formatVersion} mark` };
}

export function decodeBatch<T>(
  text: string,
  validate: (value: unknown) => value is T,
): Decoded<DecodedBatch<T>> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const body = parsed.value;
  if (!isVersioned(body) || !Array.isArray(body['entries'])) {
    return { ok: false, reason: `not a version ${formatVersion} batch` };
  }
  const keys: string[] = [];
  const entries: Array<{ key: string; value: T }> = [];
  const invalid: string[] = [];
  for (const item of body['entries'] as unknown[]) {
    if (!isKeyed(item)) return { ok: false, reason: 'an entry without a valid key' };
    keys.push(item.key);
    if (validate(item.value)) entries.push({ key: item.key, value: item.value });
    else invalid.push(item.key);
  }
  if (keys.length === 0) return { ok: false, reason: 'a batch without entries' };
  return { ok: true, value: { keys, entries, invalid } };
}

export function decodeDone(text: string): Decoded<ReadonlySet<string>> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const body = parsed.value;
  if (!isVersioned(body) || !Array.isArray(body['done'])) {
    return { ok: false, reason: `not a version ${formatVersion} done list` };
  }
  const done = body['done'] as unknown[];
  if (!done.every(isValidRecordKey)) return { ok: false, reason: 'a done key that is not a key' };
  return { ok: true, value: new Set(done) };
}

export function decodeLegacy<T>(
  text: string,
  validate: (value: unknown) => value is T,
): Decoded<T> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  return validate(parsed.value)
    ? { ok: true, value: parsed.value }
    : { ok: false, reason: 'invalid record' };
}

function parseJson(text: string): Decoded<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}

function isVersioned(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>)['version'] === formatVersion
  );
}

function isKeyed(value: unknown): value is { key: string; value: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    isValidRecordKey((value as { key?: unknown }).key) &&
    'value' in value
  );
}

/** What the inbox folder held when it was read, decoded; files that could not be used are absent. */
export interface InboxFolderContents<T> {
  readonly batches: ReadonlyArray<{
    readonly id: string;
    readonly keys: readonly string[];
    readonly entries: ReadonlyArray<{ readonly key: string; readonly value: T }>;
  }>;
  /** Done keys by batch id; a batch without a (usable) done file has none done. */
  readonly done: ReadonlyMap<string, ReadonlySet<string>>;
  readonly legacy: ReadonlyArray<{ readonly key: string; readonly value: T }>;
  /** Marks by entry key (see `<key>.mark`); an unreadable one is absent. */
  readonly marks: ReadonlyMap<string, unknown>;
}

/** Every entry not yet done, batches and legacy files together, in key (= arrival) order. */
export function pendingInboxEntries<T>(
  folder: InboxFolderContents<T>,
): Array<{ key: string; value: T; mark?: unknown }> {
  const fromBatches = folder.batches.flatMap((batch) => {
    const done = folder.done.get(batch.id);
    return batch.entries.filter((entry) => !done?.has(entry.key));
  });
  return [...fromBatches, ...folder.legacy]
    .map(({ key, value }) => {
      const mark = folder.marks.get(key);
      return mark === undefined ? { key, value } : { key, value, mark };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
