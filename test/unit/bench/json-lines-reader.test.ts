import { describe, expect, it } from 'vitest';
import { splitCompleteLines } from '../../../bench/json-lines-reader.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('splitCompleteLines', () => {
  it('returns the complete lines and keeps the unfinished tail', () => {
    const { lines, rest } = splitCompleteLines(bytes(''), bytes('{"a":1}\n{"b":2}\n{"c"'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(rest.toString()).toBe('{"c"');
  });

  it('finishes a line carried over from the last read', () => {
    const { lines, rest } = splitCompleteLines(bytes('{"c"'), bytes(':3}\n'));
    expect(lines).toEqual(['{"c":3}']);
    expect(rest.length).toBe(0);
  });

  it('gives nothing until a newline arrives, and drops empty lines', () => {
    expect(splitCompleteLines(bytes(''), bytes('{"a"')).lines).toEqual([]);
    expect(splitCompleteLines(bytes(''), bytes('\n\n{"a":1}\n\n')).lines).toEqual(['{"a":1}']);
  });

  it('keeps a multi-byte character whole when a read ends inside it', () => {
    const whole = bytes('{"t":"é"}\n');
    const cut = whole.indexOf(0xa9);
    const first = splitCompleteLines(Buffer.alloc(0), whole.subarray(0, cut));
    const second = splitCompleteLines(first.rest, whole.subarray(cut));
    expect(first.lines).toEqual([]);
    expect(second.lines).toEqual(['{"t":"é"}']);
  });
});
