import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load-config.js';
import type { Config } from '../../../src/config/types.js';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';
import { createDeliveryCore } from '../../../src/delivery/create-delivery-core.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { LoopError } from '../../../src/errors.js';
import { createCommandAdapter } from '../../../src/harness/command-adapter.js';
import { createHarnessLauncher } from '../../../src/sessions/create-harness-launcher.js';
import { createSessionStarter } from '../../../src/sessions/create-session-starter.js';
import { createSessionTokens } from '../../../src/sessions/session-tokens.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import {
  createStandingService,
  type StandingService,
} from '../../../src/standing/create-standing-service.js';
import { createStandingResolver } from '../../../src/standing/create-standing-resolver.js';
import { isStandingRecord } from '../../../src/standing/standing-types.js';
import { createMemoryEventLog, type MemoryEventLog } from '../../helpers/memory-event-log.js';
import { createRecordStore } from '../../../src/state/record-store.js';
import { createFakeTmuxDriver, type FakeTmuxDriver } from '../../fakes/fake-tmux-driver.js';

describe('standing service verbs over a fake tmux driver', () => {
  let dir: string;
  let config: Config;
  let driver: FakeTmuxDriver;
  let events: MemoryEventLog;
  let service: StandingService;
  let store: ReturnType<
    typeof createRecordStore<import('../../../src/standing/standing-types.js').StandingRecord>
  >;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-standing-'));
    await mkdir(path.join(dir, 'work'));
    config = resolveConfig(
      {
        state: { root: 'state' },
        defaults: { harness: 'shell', cwd: 'work' },
        standing: {
          allowedRoots: ['work'],
          sessions: [{ name: 'declared', harness: 'shell', cwd: 'work' }],
        },
        harnesses: { shell: { kind: 'command', command: 'sh' } },
      },
      path.join(dir, 'config.yaml'),
    );
    driver = createFakeTmuxDriver();
    events = createMemoryEventLog();
    store = createRecordStore({
      dir: path.join(dir, 'state', 'standing'),
      validate: isStandingRecord,
      logger: silentLogger(),
    });
    const states = createAgentStates();
    const tokens = createSessionTokens();
    const delivery = createDeliveryCore({
      driver,
      resolve: createStandingResolver({ config, store, owner: 'me' }),
      states,
      confirmations: createConfirmationTracker(),
      events,
      logger: silentLogger(),
      timing: { readyTimeoutMs: 1_000, submitDelayMs: 0, confirmTimeoutMs: 100 },
    });
    const launcher = createHarnessLauncher({
      driver,
      states,
      adapters: [createCommandAdapter()],
      loopCommand: ['the-loop'],
      harnessDir: path.join(dir, 'state', 'harness'),
      resumeProbeMs: 50,
      screenReadyTimeoutMs: 100,
      serveEnv: process.env,
      loopBinDir: '/opt/the-loop/bin',
      logger: silentLogger(),
    });
    const starter = createSessionStarter({
      config,
      launcher,
      delivery,
      socketPath: '/x.sock',
      owner: 'me',
      logger: silentLogger(),
      tokens,
    });
    service = createStandingService({
      config,
      store,
      driver,
      starter,
      tokens,
      delivery,
      states,
      events,
      owner: 'me',
      stopGraceMs: 10,
    });
  });

  it('delete keeps the record and fails when the stop fails', async () => {
    await service.create({ name: 'helper' });
    driver.failNext('terminate', new LoopError('tmux_unavailable', 'tmux did not answer'));
    await expect(service.delete('helper')).rejects.toMatchObject({ code: 'tmux_unavailable' });
    expect(await store.read('helper')).toBeDefined();
    expect(events.events.map((entry) => entry.event)).toContain('standing.stop_failed');
    expect(events.events.map((entry) => entry.event)).not.toContain('standing.deleted');
  });

  it('restart checks everything start needs before it stops anything', async () => {
    await service.create({ name: 'helper' });
    const record = await store.read('helper');
    if (!record) throw new Error('no record');
    await store.write('helper', {
      ...record,
      definition: { ...record.definition, cwd: path.join(dir, 'gone') },
    });
    await expect(service.restart('helper')).rejects.toMatchObject({
      code: 'spawn_failed',
      message: expect.stringContaining('gone'),
    });
    expect(driver.calls.filter((call) => call.startsWith('terminate'))).toEqual([]);
    expect(driver.sessions.get('loop-standing-helper')?.state).toBe('live');
  });

  it('a created session that cannot start is removed again, naming the missing program', async () => {
    const broken = resolveConfig(
      {
        ...{ state: { root: 'state' } },
        defaults: { harness: 'nope', cwd: 'work' },
        standing: { allowedRoots: ['work'] },
        harnesses: { nope: { kind: 'command', command: 'no-such-program-xyz' } },
      },
      path.join(dir, 'config.yaml'),
    );
    const brokenService = createStandingService({
      config: broken,
      store,
      driver,
      starter: createSessionStarter({
        config: broken,
        launcher: createHarnessLauncher({
          driver,
          states: createAgentStates(),
          adapters: [createCommandAdapter()],
          loopCommand: [],
          harnessDir: dir,
          resumeProbeMs: 10,
          screenReadyTimeoutMs: 10,
          serveEnv: process.env,
          loopBinDir: '/opt/the-loop/bin',
          logger: silentLogger(),
        }),
        delivery: { deliver: async () => ({ outcome: 'delivered', deliveryId: 'x' }) },
        socketPath: '/x.sock',
        owner: 'me',
        logger: silentLogger(),
        tokens: createSessionTokens(),
      }),
      tokens: createSessionTokens(),
      delivery: { deliver: async () => ({ outcome: 'delivered', deliveryId: 'x' }) },
      states: createAgentStates(),
      events,
      owner: 'me',
      stopGraceMs: 10,
    });
    await expect(brokenService.create({ name: 'doomed' })).rejects.toMatchObject({
      code: 'spawn_failed',
      message: expect.stringContaining('no-such-program-xyz'),
    });
    expect(await store.read('doomed')).toBeUndefined();
    expect(driver.calls.filter((call) => call.startsWith('spawn'))).toEqual([]);
  });

  it('refuses to delete a declared session, naming the config key and stop', async () => {
    await expect(service.delete('declared')).rejects.toMatchObject({
      code: 'declared_session',
      message: expect.stringMatching(/standing\.sessions\[0\].*the-loop standing stop declared/s),
    });
  });

  it('refuses create arguments only the config may set, and a cwd escaping the allowed roots', async () => {
    await expect(
      service.create({ name: 'x', args: ['--dangerous'] } as never),
    ).rejects.toMatchObject({ code: 'bad_request' });
    await expect(service.create({ name: 'x', cwd: dir })).rejects.toMatchObject({
      code: 'cwd_not_allowed',
    });
    await rm(path.join(dir, 'work'), { recursive: true });
    await expect(service.create({ name: 'x' })).rejects.toMatchObject({ code: 'cwd_not_allowed' });
  });

  it('a say to a stopped session refuses with the remedy, and nothing is typed', async () => {
    await service.create({ name: 'helper', start: false });
    await expect(service.say('helper', 'hi', 'ana')).rejects.toMatchObject({
      code: 'session_not_running',
      message: expect.stringContaining('the-loop standing start helper'),
    });
    expect(driver.calls.filter((call) => call.startsWith('paste'))).toEqual([]);
  });
});
