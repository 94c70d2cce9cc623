import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopError, type LoopError } from '../../../src/errors.js';
import {
  loadInstanceIdentity,
  parseInstanceIdentity,
} from '../../../src/state/instance-identity.js';
import { makeTempDir, modeOf, type TempDir } from '../../helpers/fs-fixtures.js';

let temp: TempDir;
let root: string;
beforeEach(async () => {
  temp = await makeTempDir();
  root = path.join(temp.path, 'state');
});
afterEach(async () => {
  await temp.remove();
});

async function refusal(promise: Promise<unknown>): Promise<LoopError> {
  try {
    await promise;
  } catch (error) {
    if (isLoopError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('loadInstanceIdentity', () => {
  it('makes a uuid once, stores it 0600, and reads the same id back later', async () => {
    const first = await loadInstanceIdentity(root);
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const file = path.join(root, 'instance.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ id: first.id });
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(root)).toBe(0o700);
    expect(await loadInstanceIdentity(root)).toEqual(first);
    expect(await readdir(root)).toEqual(['instance.json']);
  });

  it('agrees on one id when several loads race to create it', async () => {
    let n = 0;
    const loads = Array.from({ length: 8 }, () =>
      loadInstanceIdentity(root, { newId: () => `candidate-${n++}` }),
    );
    const ids = new Set((await Promise.all(loads)).map((identity) => identity.id));
    expect(ids.size).toBe(1);
    const stored = JSON.parse(await readFile(path.join(root, 'instance.json'), 'utf8'));
    expect(ids.has(stored.id)).toBe(true);
    expect(await readdir(root)).toEqual(['instance.json']);
  });

  it.each([
    ['not JSON', '{"id": "abc'],
    ['no id', '{}'],
    ['an empty id', '{"id": ""}'],
    ['an id that is not text', '{"id": 12}'],
    ['an id with unsafe characters', '{"id": "a b;rm"}'],
    ['an empty file', ''],
  ])('refuses a damaged file (%s) and leaves it as it is', async (_label, content) => {
    const file = path.join(root, 'instance.json');
    await loadInstanceIdentity(root);
    await writeFile(file, content);
    const error = await refusal(loadInstanceIdentity(root));
    expect(error.code).toBe('state_corrupt');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/restore it from a backup|delete it/);
    expect(await readFile(file, 'utf8')).toBe(content);
  });
});

describe('parseInstanceIdentity', () => {
  it.each([
    ['{"id":"3f0c1c1e-0000-4000-8000-000000000000"}', '3f0c1c1e-0000-4000-8000-000000000000'],
    ['{"id":"laptop_a.1"}', 'laptop_a.1'],
    ['{"id":"-leading"}', undefined],
    ['null', undefined],
    [`{"id":"${'x'.repeat(65)}"}`, undefined],
  ])('%s → %s', (text, id) => {
    expect(parseInstanceIdentity(text)?.id).toBe(id);
  });
});
