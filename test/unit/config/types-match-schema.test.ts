import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/config-schema.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { Config } from '../../../src/config/types.js';
import { schemaKeyPaths, valueKeyPaths } from './schema-key-paths.js';

/** Every optional key made required, all the way down, so the object below must hold every key. */
type DeepRequired<T> = T extends readonly (infer U)[]
  ? readonly DeepRequired<U>[]
  : T extends object
    ? { [K in keyof T]-?: DeepRequired<T[K]> }
    : T;

// Typed against Config: a key added to or removed from src/config/types.ts breaks compilation
// here, and the test below then demands the same change in the schema.
const everyKey: DeepRequired<Config> = {
  configPath: '/etc/the-loop/config.yaml',
  instance: { name: 'laptop-b', scope: { mode: 'addressed', workItems: ['github:octo/repo#1'] } },
  instanceWarnings: [],
  state: { root: '/var/lib/the-loop', eventLog: { maxBytes: 1_048_576 } },
  tmux: { socket: 'loop' },
  harnesses: {
    codex: {
      kind: 'command',
      command: 'codex',
      args: [],
      agent: true,
      interruptKey: 'C-c',
      mcp: true,
      readyPattern: '^> ',
      permissionMode: 'ask',
    },
  },
  defaults: { harness: 'codex', cwd: '/srv' },
  standing: {
    autoStart: true,
    allowedRoots: ['/srv'],
    sessions: [
      {
        name: 'sup',
        description: '',
        harness: 'codex',
        args: [],
        cwd: '/srv',
        prompt: 'hi',
        promptFile: '/srv/brief.md',
        autoStart: true,
        slack: { channel: 'C1' },
      },
    ],
  },
  delivery: {
    readyTimeoutMs: 1,
    submitDelayMs: 1,
    confirmTimeoutMs: 1,
    draftWaitMs: 1,
    unknownScreenMs: 1,
  },
  slack: {
    enabled: true,
    mode: 'socket',
    channel: '',
    command: '/loop',
    authorizedUsers: [],
    approvers: [],
    progress: 'summary',
    files: { maxBytes: 20971520 },
  },
  github: {
    repos: [{ repo: 'octo/repo', path: '/srv/repo' }],
    authorizedUsers: [],
    approvers: [],
    permissions: 'brief',
    keyword: 'the-loop',
    webhook: { path: '/github/webhook', allowUnsigned: false },
    poll: { enabled: false, intervalSeconds: 30 },
  },
  permissions: { timeoutSeconds: 600, alwaysModes: [] },
  agents: { maxMessagesPerMinute: 20 },
  http: { host: '127.0.0.1', port: 3000 },
  api: { listen: '' },
  dashboard: { listen: '127.0.0.1:8791', allowRemote: true, allowedHosts: ['loop.example'] },
  fleet: { nats: 'nats://127.0.0.1:4222', defaultInstance: 'laptop-b', retention: '24h' },
};

const maps = new Set(['harnesses']);
const notInSchema = new Set(['configPath', 'instanceWarnings']);
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/config');

function configKeyPaths(config: Config | DeepRequired<Config>): string[] {
  const { configPath: _path, instanceWarnings: _warnings, ...rest } = config;
  return [...valueKeyPaths(rest, maps)].sort();
}

describe('src/config/types.ts and schemas/config.schema.json', () => {
  const schemaPaths = [...schemaKeyPaths(configSchema()).keys()].sort();

  it('leaves out only the keys the loader adds', () => {
    const typed = Object.keys(everyKey);
    expect(typed.filter((key) => !(key in (configSchema().properties ?? {})))).toEqual([
      ...notInSchema,
    ]);
  });

  it('a fully populated Config has exactly the schema key paths, both ways', () => {
    const typedPaths = configKeyPaths(everyKey);
    expect(typedPaths.filter((p) => !schemaPaths.includes(p))).toEqual([]);
    expect(schemaPaths.filter((p) => !typedPaths.includes(p))).toEqual([]);
  });

  it('the config resolved from a file setting every key has exactly the schema key paths', async () => {
    const config = await loadConfig(path.join(fixtures, 'full.yaml'), { env: {} });
    const resolvedPaths = configKeyPaths(config);
    expect(resolvedPaths.filter((p) => !schemaPaths.includes(p))).toEqual([]);
    expect(schemaPaths.filter((p) => !resolvedPaths.includes(p))).toEqual([]);
  });
});
