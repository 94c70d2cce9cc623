import { randomUUID } from 'node:crypto';
import { LoopError, errnoCode } from '../errors.js';
import { ensurePrivateDir } from './ensure-private-dir.js';
import { isNotRegularFile, readRegularFile } from './read-regular-file.js';
import { statePaths } from './state-paths.js';
import { writeFileAtomic } from './write-file-atomic.js';
import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';

export interface InstanceIdentity {
  /** The value of the `@the-loop-owner` tmux option on every session this instance spawns. */
  readonly id: string;
}

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * This instance's id, made once and kept in `<root>/instance.json`. Losing it would orphan every
 * running session (they carry the old id as their owner tag), so a damaged file is a refusal that
 * tells the user what to do — never a quiet new id.
 */
export async function loadInstanceIdentity(
  root: string,
  options: { newId?: () => string } = {},
): Promise<InstanceIdentity> {
  const file = statePaths(root).instanceFile;
  const existing = await readIdentity(file);
  if (existing) return existing;
  await ensurePrivateDir(root);
  const identity: InstanceIdentity = { id: (options.newId ?? randomUUID)() };
  // Exclusive create: if another process made the file first, its id is the one that counts.
  const created = await writeFileAtomic(file, `${JSON.stringify(identity, null, 2)}\n`, {
    exclusive: true,
  });
  if (created) return identity;
  const winner = await readIdentity(file);
  if (!winner) throw corrupt(file, 'it vanished while being read');
  return winner;
}

async function readIdentity(file: string): Promise<InstanceIdentity | undefined> {
  let text: string | undefined;
  try {
    text = await readRegularFile(file);
  } catch (error) {
    if (isNotRegularFile(error)) throw error;
    throw new LoopError(
      'state_corrupt',
      `cannot read ${file} (${errnoCode(error) ?? String(error)}): make it readable by the user that runs the-loop`,
      { file },
    );
  }
  if (text === undefined) return undefined;
  const identity = parseInstanceIdentity(text);
  if (!identity) throw corrupt(file, 'it is not {"id": "<id>"}');
  return identity;
}

export function parseInstanceIdentity(text: string): InstanceIdentity | undefined {
  const value = parseJsonOrUndefined(text);
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' && idPattern.test(id) ? { id } : undefined;
}

function corrupt(file: string, why: string): LoopError {
  return new LoopError(
    'state_corrupt',
    `${file} is damaged (${why}). It holds the id that marks this instance's tmux sessions as its ` +
      `own: restore it from a backup, or, if no the-loop sessions of this instance are running, ` +
      `delete it and a new id will be made`,
    { file },
  );
}
