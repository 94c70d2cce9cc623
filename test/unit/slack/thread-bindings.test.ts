import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/create-logger.js';
import { bindingRecordKey, createThreadBindings } from '../../../src/slack/thread-bindings.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';

const binding = {
  channel: 'C0OPS',
  threadTs: '1700000000.000100',
  ref: 'standing:sup',
  createdAt: '2026-11-30T00:00:00.000Z',
};

let temp: TempDir;

beforeEach(async () => {
  temp = await makeTempDir();
});

afterEach(async () => {
  await temp.remove();
});

describe('thread bindings', () => {
  it('finds a binding by thread and by ref, and in a fresh process reading the same folder', async () => {
    const bindings = createThreadBindings({ dir: temp.path, logger: silentLogger() });
    await bindings.bind(binding);
    expect(await bindings.find('C0OPS', binding.threadTs)).toEqual(binding);
    expect(await bindings.forRef('standing:sup')).toEqual(binding);
    expect(await bindings.find('C0OTHER', binding.threadTs)).toBeUndefined();

    const reread = createThreadBindings({ dir: temp.path, logger: silentLogger() });
    expect(await reread.find('C0OPS', binding.threadTs)).toEqual(binding);
    expect(await reread.forRef('standing:sup')).toEqual(binding);
  });

  it('finds a binding while it is still being written, so the first reply is not taken as unbound', async () => {
    const bindings = createThreadBindings({ dir: temp.path, logger: silentLogger() });
    const writing = bindings.bind(binding);
    expect(await bindings.find('C0OPS', binding.threadTs)).toEqual(binding);
    await writing;
    expect(await bindings.find('C0OPS', binding.threadTs)).toEqual(binding);
  });

  it('unbinding a ref frees its thread', async () => {
    const bindings = createThreadBindings({ dir: temp.path, logger: silentLogger() });
    await bindings.bind(binding);
    await bindings.unbindRef('standing:sup');
    expect(await bindings.find('C0OPS', binding.threadTs)).toBeUndefined();
    expect(await bindings.forRef('standing:sup')).toBeUndefined();
  });

  it('skips a torn binding file instead of failing every lookup', async () => {
    await writeFile(
      path.join(temp.path, `${bindingRecordKey('C0OPS', '1700000099.000001')}.json`),
      '{"chan',
    );
    const bindings = createThreadBindings({ dir: temp.path, logger: silentLogger() });
    await bindings.bind(binding);
    expect(await bindings.forRef('standing:sup')).toEqual(binding);
    expect(await bindings.find('C0OPS', '1700000099.000001')).toBeUndefined();
  });
});
