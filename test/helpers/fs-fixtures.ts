import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
  readonly path: string;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix = 'the-loop-state-'): Promise<TempDir> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { path: dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `fn` under a umask that would strip owner bits, proving modes are set explicitly. */
export async function withUmask<R>(mask: number, fn: () => Promise<R>): Promise<R> {
  const previous = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(previous);
  }
}

export async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

/**
 * Runs `fn` with the effective uid of `nobody` when the tests run as root (folder modes do not
 * bind root), and restores it afterwards; as any other user it simply runs `fn`.
 */
export async function asUnprivileged<R>(fn: () => Promise<R>): Promise<R> {
  if (process.geteuid?.() !== 0 || !process.seteuid) return fn();
  process.seteuid(65534);
  try {
    return await fn();
  } finally {
    process.seteuid(0);
  }
}
