import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutsideFile, refusalOf } from '../../../src/files/read-outside-file.js';
import { makeFifo, releaseFifos, within } from '../../faults/support/special-files.js';

describe('readOutsideFile, the one opener for paths from outside', () => {
  let dir: string;
  let server: Server;
  const at = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-opener-'));
    await mkdir(at('projects'));
    await writeFile(at('projects/t.jsonl'), 'inside\n');
    await writeFile(at('plain.txt'), 'hello');
    await writeFile(at('big.txt'), 'x'.repeat(100));
    await makeFifo(at('fifo'));
    server = createServer();
    await new Promise<void>((resolve) => server.listen(at('sock'), resolve));
    for (const [link, target] of [
      ['to-fifo', at('fifo')],
      ['to-sock', at('sock')],
      ['to-zero', '/dev/zero'],
      ['to-environ', '/proc/self/environ'],
      ['to-plain', at('plain.txt')],
      ['projects/escape.jsonl', at('plain.txt')],
    ] as const) {
      await symlink(target, at(link));
    }
  });

  afterAll(async () => {
    await releaseFifos([at('fifo')]);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a FIFO', 'fifo', 'not_regular'],
    ['a symlink to a FIFO', 'to-fifo', 'not_regular'],
    ['a socket', 'sock', 'not_regular'],
    ['a symlink to a socket', 'to-sock', 'not_regular'],
    ['/dev/zero', '/dev/zero', 'not_regular'],
    ['a symlink to /dev/zero', 'to-zero', 'not_regular'],
    ['/proc/self/environ', '/proc/self/environ', 'system'],
    ['a symlink to /proc/self/environ', 'to-environ', 'system'],
    ['a directory', '.', 'not_regular'],
    ['a missing file', 'nope', 'missing'],
    ['a file over the limit', 'big.txt', 'too_large'],
  ])('refuses %s at once', async (_what, name, refusal) => {
    const file = path.isAbsolute(name) ? name : at(name);
    const read = await within(
      5_000,
      readOutsideFile(file, { maxBytes: 10 }).then(
        () => 'read',
        (error: unknown) => refusalOf(error),
      ),
    );
    expect(read).toBe(refusal);
  });

  it('reads a regular file, through a symlink too, and the tail of a large one', async () => {
    expect((await readOutsideFile(at('plain.txt'), { maxBytes: 10 })).toString()).toBe('hello');
    expect((await readOutsideFile(at('to-plain'), { maxBytes: 10 })).toString()).toBe('hello');
    expect(await readOutsideFile(at('big.txt'), { maxBytes: 4, tail: true })).toHaveLength(4);
  });

  it('with `inside`, reads only what really lies in that folder', async () => {
    const inside = { maxBytes: 100, inside: at('projects') };
    expect((await readOutsideFile(at('projects/t.jsonl'), inside)).toString()).toBe('inside\n');
    const refused = async (file: string) =>
      readOutsideFile(file, inside).then(
        () => 'read',
        (error: unknown) => refusalOf(error),
      );
    expect(await refused(at('plain.txt'))).toBe('outside');
    expect(await refused(at('projects/escape.jsonl'))).toBe('outside');
    expect(await refused(at('projects/../plain.txt'))).toBe('outside');
  });
});
