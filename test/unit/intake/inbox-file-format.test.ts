import { describe, expect, it } from 'vitest';
import {
  classifyInboxFile,
  decodeBatch,
  decodeDone,
  decodeMark,
  encodeBatch,
  encodeDone,
  encodeMark,
  pendingInboxEntries,
} from '../../../src/intake/inbox-file-format.js';

const isText = (value: unknown): value is { text: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { text?: unknown }).text === 'string';

const key = (ms: number, seq = 0) =>
  `${String(ms).padStart(15, '0')}-${String(seq).padStart(6, '0')}-7`;

describe('inbox file names', () => {
  it('tells batches, done lists, legacy entries and temp files apart', () => {
    const k = key(1);
    expect(classifyInboxFile(`batch-${k}.json`)).toEqual({ kind: 'batch', id: k });
    expect(classifyInboxFile(`batch-${k}.done.json`)).toEqual({ kind: 'done', id: k });
    expect(classifyInboxFile(`${k}.json`)).toEqual({ kind: 'legacy', key: k });
    expect(classifyInboxFile(`${k}.mark`)).toEqual({ kind: 'mark', key: k });
    expect(classifyInboxFile('../x.mark')).toEqual({ kind: 'other' });
    // A crashed write of a batch: never a batch.
    expect(classifyInboxFile(`.batch-${k}.json.12.abcdef.tmp`)).toEqual({ kind: 'temp' });
    expect(classifyInboxFile('notes.txt')).toEqual({ kind: 'other' });
  });
});

describe('inbox file contents', () => {
  it('reads back what it writes', () => {
    const entries = [
      { key: key(1), value: { text: 'a' } },
      { key: key(1, 1), value: { text: 'b\n"quoted"' } },
    ];
    expect(decodeBatch(encodeBatch(entries), isText)).toEqual({
      ok: true,
      value: { keys: [key(1), key(1, 1)], entries, invalid: [] },
    });
    expect(decodeDone(encodeDone([key(2), key(1)]))).toEqual({
      ok: true,
      value: new Set([key(1), key(2)]),
    });
    const mark = { tag: '02be', tmuxName: 'loop-standing-sup', panePid: 4242 };
    expect(decodeMark(encodeMark(mark))).toEqual({ ok: true, value: mark });
  });

  it('refuses torn and wrongly shaped files, and sets invalid values aside', () => {
    const text = encodeBatch([{ key: key(1), value: { text: 'a' } }]);
    expect(decodeBatch(text.slice(0, text.length - 8), isText)).toEqual({
      ok: false,
      reason: 'not JSON',
    });
    expect(decodeBatch('["not", "a", "batch"]', isText).ok).toBe(false);
    expect(decodeBatch('{"version":1,"entries":[]}', isText).ok).toBe(false);
    expect(decodeBatch('{"version":1,"entries":[{"key":"../x","value":{}}]}', isText).ok).toBe(
      false,
    );
    expect(decodeDone('{"version":1,"done":[1]}').ok).toBe(false);
    expect(decodeDone('nope').ok).toBe(false);
    expect(decodeMark('{"version":1}').ok).toBe(false);
    expect(decodeMark('{"version":2,"mark":{}}').ok).toBe(false);
    const mixed = encodeBatch([
      { key: key(1), value: { text: 'a' } },
      { key: key(1, 1), value: { nope: true } },
    ]);
    expect(decodeBatch(mixed, isText)).toEqual({
      ok: true,
      value: {
        keys: [key(1), key(1, 1)],
        entries: [{ key: key(1), value: { text: 'a' } }],
        invalid: [key(1, 1)],
      },
    });
  });
});

describe('pending inbox entries', () => {
  it('leaves out done entries and merges batches and legacy files in key order', () => {
    const entry = (ms: number, seq = 0) => ({ key: key(ms, seq), value: { text: `${ms}.${seq}` } });
    const pending = pendingInboxEntries({
      batches: [
        { id: key(30), keys: [key(30), key(30, 1)], entries: [entry(30), entry(30, 1)] },
        {
          id: key(10),
          keys: [key(10), key(10, 1), key(10, 2)],
          entries: [entry(10), entry(10, 1), entry(10, 2)],
        },
      ],
      done: new Map([[key(10), new Set([key(10, 1)])]]),
      legacy: [entry(20), entry(5)],
      marks: new Map<string, unknown>([
        [key(10, 2), { tag: 'aaaa' }],
        // The mark of a done entry is not handed on.
        [key(10, 1), { tag: 'bbbb' }],
      ]),
    });
    expect(pending.filter((each) => each.mark !== undefined)).toEqual([
      { ...entry(10, 2), mark: { tag: 'aaaa' } },
    ]);
    expect(pending.map((each) => each.value.text)).toEqual([
      '5.0',
      '10.0',
      '10.2',
      '20.0',
      '30.0',
      '30.1',
    ]);
  });
});
