// The input reader is pure, so its chunking cases are checked here directly; the tmux tests beside
// this file cannot choose where the terminal splits its reads.
import { describe, expect, it } from 'vitest';
import { createInputReader, type InputEffect } from '../../fakes/fake-agent-input.mjs';

const START = '\x1b[200~';
const END = '\x1b[201~';

function feedAll(chunks: readonly string[]): InputEffect[] {
  const reader = createInputReader();
  return chunks.flatMap((chunk) => reader.feed(chunk));
}

const submits = (effects: InputEffect[]) =>
  effects.flatMap((effect) => (effect.type === 'submit' ? [effect.text] : []));

describe('createInputReader', () => {
  const pasted = `x${START}a\rb\r\rc\r\nd\té🚀${END}\r`;

  it('reads a bracketed paste as text, CR as newline, and submits on the Enter after it', () => {
    expect(submits(feedAll([pasted]))).toEqual(['xa\nb\n\nc\nd\té🚀']);
  });

  it.each(Array.from({ length: pasted.length - 1 }, (_, i) => i + 1))(
    'gives the same prompt when the input is split at %i',
    (at) => {
      expect(submits(feedAll([pasted.slice(0, at), pasted.slice(at)]))).toEqual([
        'xa\nb\n\nc\nd\té🚀',
      ]);
    },
  );

  it('gives the same prompt when every character arrives on its own', () => {
    expect(submits(feedAll(Array.from(pasted)))).toEqual(['xa\nb\n\nc\nd\té🚀']);
  });

  it('with a paste settle, an Enter read too soon is lost and a later one submits the text', () => {
    let clock = 1_000;
    const reader = createInputReader({ pasteSettleMs: 100, now: () => clock });
    expect(reader.feed(`${START}hello${END}`)).toEqual([
      { type: 'pasted', length: 5, newlines: 0, text: 'hello' },
    ]);
    clock += 99;
    expect(reader.feed('\r')).toEqual([{ type: 'absorbed-enter' }]);
    clock += 1;
    expect(reader.feed('\r')).toEqual([{ type: 'submit', text: 'hello' }]);
  });

  it('with a paste settle, an Enter in the same read as the paste is lost', () => {
    const reader = createInputReader({ pasteSettleMs: 100, now: () => 5_000 });
    expect(submits(reader.feed(`${START}hello${END}\r`))).toEqual([]);
  });

  it('never submits inside a paste that has not ended', () => {
    const reader = createInputReader();
    expect(reader.feed(`${START}one\rtwo\r`)).toEqual([]);
    expect(reader.hasPending()).toBe(false);
    expect(reader.flush()).toEqual([]);
    expect(submits(reader.feed(`three${END}\r`))).toEqual(['one\ntwo\nthree']);
  });

  it('reports the length of each paste', () => {
    expect(feedAll([`${START}abc${END}`])).toEqual([
      { type: 'pasted', length: 3, newlines: 0, text: 'abc' },
    ]);
  });

  it('submits typed text on Enter and nothing for an empty line', () => {
    expect(feedAll(['\r', 'hi', '\r', '\r'])).toEqual([
      { type: 'typed', text: 'hi' },
      { type: 'submit', text: 'hi' },
    ]);
  });

  it('keeps a line feed outside a paste as text rather than submitting', () => {
    expect(submits(feedAll(['a\nb\r']))).toEqual(['a\nb']);
  });

  it('deletes one character, a whole emoji included, on backspace', () => {
    expect(submits(feedAll(['ab🚀', '\x7f', '\x7f', 'c\r']))).toEqual(['ac']);
  });

  it('holds a lone ESC until flushed, then reports the Escape key', () => {
    const reader = createInputReader();
    expect(reader.feed('\x1b')).toEqual([]);
    expect(reader.hasPending()).toBe(true);
    expect(reader.flush()).toEqual([{ type: 'escape' }]);
    expect(reader.hasPending()).toBe(false);
  });

  it('reads an ESC followed by a key that cannot continue a sequence as Escape', () => {
    expect(feedAll(['\x1bq'])).toEqual([{ type: 'escape' }, { type: 'typed', text: 'q' }]);
  });

  it('ignores cursor keys, whole or split', () => {
    expect(feedAll(['\x1b[A\x1bOB', '\x1b[', '1;5C'])).toEqual([]);
  });

  it('reports Ctrl-C, repeated only when nothing came between, and clears the line', () => {
    expect(feedAll(['ab\x03', 'c\x03', '\x03', 'd\r'])).toEqual([
      { type: 'typed', text: 'ab' },
      { type: 'ctrl-c', repeated: false },
      { type: 'typed', text: 'c' },
      { type: 'ctrl-c', repeated: false },
      { type: 'ctrl-c', repeated: true },
      { type: 'typed', text: 'd' },
      { type: 'submit', text: 'd' },
    ]);
  });
});
