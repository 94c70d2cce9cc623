import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureStateRoot, statePaths } from '../../../src/state/state-paths.js';
import { makeTempDir, modeOf, withUmask, type TempDir } from '../../helpers/fs-fixtures.js';
import { captureLogger } from '../../helpers/capture-logger.js';

let temp: TempDir;
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.remove();
});

describe('statePaths', () => {
  it('names every place under the root as docs/design.md §3.4 pins it', () => {
    expect(statePaths('/s')).toEqual({
      root: '/s',
      controlSocket: '/s/control.sock',
      events: '/s/events.jsonl',
      standing: '/s/standing',
      workitems: '/s/workitems',
      slackThreads: '/s/slack/threads',
      inbox: '/s/inbox',
      dedupe: '/s/dedupe',
      instanceFile: '/s/instance.json',
      harness: '/s/harness',
      tmuxScratch: '/s/tmux',
    });
  });
});

describe('ensureStateRoot', () => {
  it('creates a missing root and its parents 0700 whatever the umask', async () => {
    const root = path.join(temp.path, 'a', 'state');
    const log = captureLogger();
    const paths = await withUmask(0o022, () => ensureStateRoot(root, log.logger));
    expect(paths.events).toBe(path.join(root, 'events.jsonl'));
    expect(await modeOf(root)).toBe(0o700);
    expect(await modeOf(path.join(temp.path, 'a'))).toBe(0o700);
    expect(log.lines).toEqual([]);
  });

  it('warns about an existing root others can read, without changing it', async () => {
    const root = path.join(temp.path, 'open');
    await mkdir(root);
    await chmod(root, 0o755);
    const log = captureLogger();
    await ensureStateRoot(root, log.logger);
    expect(await modeOf(root)).toBe(0o755);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({ event: 'state.root_too_open', root, mode: '0755' });
  });

  it('is quiet about an existing private root', async () => {
    const root = path.join(temp.path, 'private');
    await mkdir(root, { mode: 0o700 });
    const log = captureLogger();
    await ensureStateRoot(root, log.logger);
    expect(log.lines).toEqual([]);
  });
});
