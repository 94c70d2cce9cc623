import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStreamText } from '../../../src/cli/read-stream-text.js';

describe('readStreamText', () => {
  it('reads a whole stream as UTF-8, even split inside a character', async () => {
    const bytes = Buffer.from('héllo');
    const stream = Readable.from([bytes.subarray(0, 2), bytes.subarray(2)]);
    expect(await readStreamText(stream, { maxBytes: 100 })).toEqual({
      text: 'héllo',
      ending: 'end',
    });
  });

  it('stops at the cap and destroys the stream', async () => {
    const stream = new PassThrough();
    stream.write('a'.repeat(10));
    const read = await readStreamText(stream, { maxBytes: 4 });
    expect(read).toEqual({ text: 'aaaa', ending: 'too-large' });
    expect(stream.destroyed).toBe(true);
  });

  it('gives up on a stream that never ends, keeping what came', async () => {
    const stream = new PassThrough();
    stream.write('{"partial":');
    const started = Date.now();
    const read = await readStreamText(stream, { maxBytes: 100, timeoutMs: 50 });
    expect(read).toEqual({ text: '{"partial":', ending: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(stream.destroyed).toBe(true);
  });

  it('reports a stream error as an ending, not a throw', async () => {
    const stream = new PassThrough();
    const reading = readStreamText(stream, { maxBytes: 100 });
    stream.destroy(new Error('boom'));
    expect((await reading).ending).toBe('error');
  });

  it('answers at once for a stream that has already ended', async () => {
    const stream = Readable.from([]);
    await readStreamText(stream, { maxBytes: 10 });
    expect(await readStreamText(stream, { maxBytes: 10, timeoutMs: 10_000 })).toEqual({
      text: '',
      ending: 'end',
    });
  });
});
