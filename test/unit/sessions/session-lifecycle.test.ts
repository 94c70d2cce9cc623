import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load-config.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { createCommandAdapter } from '../../../src/harness/command-adapter.js';
import { createHarnessLauncher } from '../../../src/sessions/create-harness-launcher.js';
import { createSessionStarter } from '../../../src/sessions/create-session-starter.js';
import { createSessionTokens, type SessionTokens } from '../../../src/sessions/session-tokens.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import {
  createSessionLifecycle,
  type LifecycleRecord,
  type LifecycleSession,
  type SessionLifecycle,
  type StartPlan,
} from '../../../src/sessions/session-lifecycle.js';
import { createMemoryEventLog, type MemoryEventLog } from '../../helpers/memory-event-log.js';
import { createRecordStore, type RecordStore } from '../../../src/state/record-store.js';
import { createFakeTmuxDriver, type FakeTmuxDriver } from '../../fakes/fake-tmux-driver.js';

interface TestRecord extends LifecycleRecord {
  readonly version: 1;
  readonly label: string;
}

const isTestRecord = (value: unknown): value is TestRecord =>
  typeof value === 'object' && value !== null && (value as { version?: unknown }).version === 1;

const session: LifecycleSession = {
  ref: 'standing:alpha',
  key: 'alpha',
  tmuxName: 'loop-standing-alpha',
  fields: { name: 'alpha' },
};

/** A real store on disk whose writes fail, as on a full disk, while `full` is set. */
function fillableStore(inner: RecordStore<TestRecord>): RecordStore<TestRecord> & {
  full: boolean;
} {
  const store = {
    full: false,
    read: (key: string) => inner.read(key),
    remove: (key: string) => inner.remove(key),
    list: () => inner.list(),
    async write(key: string, value: TestRecord) {
      if (store.full) {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        });
      }
      await inner.write(key, value);
    },
  };
  return store;
}

describe('the session lifecycle when a record cannot be written', () => {
  let driver: FakeTmuxDriver;
  let tokens: SessionTokens;
  let events: MemoryEventLog;
  let store: ReturnType<typeof fillableStore>;
  let lifecycle: SessionLifecycle<TestRecord>;
  let issued: string[];
  const plan: StartPlan<TestRecord> = {
    prepare: async () => ({ cwd: '/', harnessName: 'shell', args: [], bootPrompt: () => '' }),
    running: (record, started) => ({
      version: 1,
      label: record?.label ?? 'new',
      status: 'running',
      sessionToken: started.sessionToken,
    }),
  };

  beforeEach(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-lifecycle-'));
    await mkdir(path.join(dir, 'work'));
    const config = resolveConfig(
      {
        state: { root: 'state' },
        defaults: { harness: 'shell', cwd: 'work' },
        harnesses: { shell: { kind: 'command', command: 'sh' } },
      },
      path.join(dir, 'config.yaml'),
    );
    driver = createFakeTmuxDriver();
    tokens = createSessionTokens();
    events = createMemoryEventLog();
    issued = [];
    store = fillableStore(
      createRecordStore({
        dir: path.join(dir, 'records'),
        validate: isTestRecord,
        logger: silentLogger(),
      }),
    );
    const states = createAgentStates();
    const starter = createSessionStarter({
      config,
      launcher: createHarnessLauncher({
        driver,
        states,
        adapters: [createCommandAdapter()],
        loopCommand: ['the-loop'],
        harnessDir: path.join(dir, 'harness'),
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
      tokens,
      newToken: () => {
        issued.push(`token-${issued.length + 1}`);
        return issued.at(-1) ?? '';
      },
    });
    lifecycle = createSessionLifecycle({
      kind: 'standing',
      store,
      messages: {
        foreign: () => 'foreign',
        unrecorded: () => 'unrecorded',
        tmuxUnknown: () => 'tmux unknown',
        restartHint: () => 'restart it: `the-loop standing restart alpha`',
      },
      sessionOf: () => session,
      driver,
      starter,
      tokens,
      states,
      events,
      owner: 'me',
      stopGraceMs: 10,
      clock: () => new Date('2026-12-01T12:00:00Z'),
    });
  });

  it('a start undoes its spawn and its token, in reverse order, and says why', async () => {
    store.full = true;
    await expect(lifecycle.start(session, plan)).rejects.toMatchObject({
      code: 'record_write_failed',
      message: expect.stringMatching(/ENOSPC.*free space under the state root/),
    });
    expect(driver.calls.filter((call) => /^(spawn|clear)/.test(call))).toEqual([
      'spawn loop-standing-alpha',
      'clear loop-standing-alpha',
    ]);
    expect(driver.sessions.has('loop-standing-alpha')).toBe(false);
    expect(issued).toHaveLength(1);
    expect(tokens.find(issued[0] ?? '')).toBeUndefined();
    expect(events.events).toContainEqual(
      expect.objectContaining({ event: 'standing.spawn_failed', code: 'record_write_failed' }),
    );
    // Nothing is left in the way of the next start.
    store.full = false;
    await expect(lifecycle.start(session, plan)).resolves.toMatchObject({ outcome: 'started' });
  });

  it('a stop revokes the token although the record still names it', async () => {
    await lifecycle.start(session, plan);
    const token = issued[0] ?? '';
    expect(await lifecycle.sessionForToken(token)).toEqual(session);
    store.full = true;
    await expect(lifecycle.stop(session)).rejects.toMatchObject({
      code: 'record_write_failed',
      message: expect.stringMatching(/is stopped, but .*ENOSPC/),
    });
    expect(driver.sessions.has('loop-standing-alpha')).toBe(false);
    expect((await store.read('alpha'))?.sessionToken).toBe(token);
    expect(tokens.find(token)).toBeUndefined();
    expect(await lifecycle.sessionForToken(token)).toBeUndefined();
    expect(events.events).toContainEqual(
      expect.objectContaining({ event: 'standing.stopped', recordWritten: false }),
    );
  });

  it('refuses to adopt a live session of ours whose record has no token', async () => {
    await store.write('alpha', { version: 1, label: 'old', status: 'stopped' });
    await driver.spawn({
      name: 'loop-standing-alpha',
      cwd: '/',
      argv: ['sh'],
      env: {},
      owner: 'me',
    });
    await expect(lifecycle.start(session, plan)).rejects.toMatchObject({
      code: 'session_token_lost',
      message: expect.stringContaining('the-loop standing restart alpha'),
    });
    expect((await store.read('alpha'))?.status).toBe('stopped');
  });
});
