import { describe, expect, it } from 'vitest';
import { chooseTextSource, type TextSource } from '../../../src/cli/input.js';

describe('chooseTextSource', () => {
  it.each<[string, Parameters<typeof chooseTextSource>[0], TextSource['kind'], string?]>([
    ['TEXT as it is', { text: 'hello', stdinIsTerminal: true }, 'literal'],
    ['- reads stdin, even at a terminal', { text: '-', stdinIsTerminal: true }, 'stdin'],
    ['no TEXT with piped input reads stdin', { stdinIsTerminal: false }, 'stdin'],
    [
      'no TEXT at a terminal is a mistake',
      { stdinIsTerminal: true },
      'usage-error',
      'give the text',
    ],
    ['--file', { file: 'a.md', stdinIsTerminal: false }, 'file'],
    [
      'TEXT and --file together',
      { text: 'x', file: 'a.md', stdinIsTerminal: false },
      'usage-error',
      'not both',
    ],
    ['an empty TEXT is still TEXT', { text: '', stdinIsTerminal: false }, 'literal'],
  ])('%s', (_, input, kind, message) => {
    const source = chooseTextSource(input);
    expect(source.kind).toBe(kind);
    if (source.kind === 'usage-error') expect(source.message).toContain(message);
    if (source.kind === 'literal') expect(source.text).toBe(input.text);
  });
});
