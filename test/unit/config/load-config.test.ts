import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type ConfigIssueCode } from '../../../src/config/config-error.js';
import { loadConfig, resolveConfig } from '../../../src/config/load-config.js';
import { controlCharacters } from './control-characters.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '../../fixtures/config');
const repoRoot = path.join(here, '../../..');
const noHome = { env: {} };

async function refusal(file: string, options = noHome): Promise<ConfigError> {
  const error: unknown = await loadConfig(file, options).then(
    () => new Error(`expected ${file} to be refused`),
    (thrown: unknown) => thrown,
  );
  if (error instanceof ConfigError) return error;
  throw error;
}

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'the-loop-config-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('loads this repository’s own example config without a warning', async () => {
    const config = await loadConfig(path.join(repoRoot, '.the-loop/config.yaml'), noHome);
    expect(config.instanceWarnings).toEqual([]);
    expect(config.instance).toEqual({ name: '', scope: { mode: 'open', workItems: [] } });
    expect(config.state.root).toBe(path.join(repoRoot, '.the-loop/state'));
    expect(config.defaults).toEqual({ harness: 'shell', cwd: repoRoot });
    expect(config.standing.allowedRoots).toEqual([repoRoot]);
    expect(config.standing.sessions).toEqual([
      {
        name: 'demo',
        description: 'a plain shell to try the-loop with',
        harness: 'shell',
        args: [],
        cwd: repoRoot,
        autoStart: true,
        slack: false,
      },
    ]);
    expect(config.harnesses['shell']?.agent).toBe(false);
  });

  it.each(['empty.yaml', 'comments-only.yaml'])('reads %s as every default', async (name) => {
    const file = path.join(fixtures, name);
    expect(await loadConfig(file, noHome)).toEqual(resolveConfig({}, file));
  });

  it('reads every key of full.yaml', async () => {
    const config = await loadConfig(path.join(fixtures, 'full.yaml'), noHome);
    expect(config.configPath).toBe(path.join(fixtures, 'full.yaml'));
    expect(config.instance.scope.mode).toBe('addressed');
    expect(config.state.root).toBe(path.join(fixtures, '../state-elsewhere'));
    expect(config.harnesses['claude']?.args).toEqual(['--model', 'opus']);
    expect(config.standing.sessions[1]?.promptFile).toBe(path.join(fixtures, 'briefs/notes.md'));
    expect(config.standing.sessions[1]?.harness).toBe('codex');
    expect(config.github.repos).toEqual([
      { repo: 'octo/repo', path: path.join(fixtures, '../repo') },
    ]);
    expect(config.api.listen).toBe('127.0.0.1:8790');
    expect(config.agents.maxMessagesPerMinute).toBe(5);
    expect(config.harnesses['codex']?.mcp).toBe(true);
  });

  it('takes a relative path from `cwd` and `~/` from the HOME it is given', async () => {
    await writeFile(path.join(scratch, 'home.yaml'), 'state:\n  root: ~/loop-state\n');
    const config = await loadConfig('home.yaml', { cwd: scratch, env: { HOME: '/home/dana' } });
    expect(config.configPath).toBe(path.join(scratch, 'home.yaml'));
    expect(config.state.root).toBe('/home/dana/loop-state');
  });

  it('refuses a missing file, naming it and how to create one', async () => {
    const file = path.join(scratch, 'nope', 'config.yaml');
    const error = await refusal(file);
    expect(error.code).toBe('config_invalid');
    expect(error.issues).toEqual([expect.objectContaining({ path: '', code: 'file_missing' })]);
    expect(error.issues[0]?.message).toContain(file);
    expect(error.issues[0]?.message).toMatch(/create it/);
  });

  it('refuses a directory as unreadable', async () => {
    const folder = path.join(scratch, 'a-folder.yaml');
    await mkdir(folder, { recursive: true });
    expect((await refusal(folder)).issues[0]?.code).toBe('file_unreadable');
  });

  const yamlRefusals: { file: string; code: ConfigIssueCode; line?: number }[] = [
    { file: 'malformed.yaml.txt', code: 'yaml_syntax', line: 5 },
    { file: 'duplicate-key.yaml', code: 'yaml_syntax', line: 3 },
    { file: 'custom-tag.yaml', code: 'yaml_syntax', line: 4 },
    { file: 'two-documents.yaml', code: 'yaml_syntax', line: 3 },
    { file: 'alias-bomb.yaml', code: 'yaml_syntax' },
  ];

  it.each(yamlRefusals)('refuses $file ($code, line $line)', async ({ file, code, line }) => {
    const error = await refusal(path.join(fixtures, file));
    expect(error.issues[0]).toEqual(expect.objectContaining({ path: '', code }));
    if (line !== undefined) expect(error.issues[0]?.message).toContain(`line ${line},`);
  });
});

describe('loadConfig with the hostile fixture', () => {
  it('refuses a mapping used as a key as an unknown key', async () => {
    const error = await refusal(path.join(fixtures, 'collection-key.yaml'));
    expect(error.issues).toEqual([
      expect.objectContaining({ path: '["[ state, root ]"]', code: 'unknown_key' }),
    ]);
  });

  it('refuses it whole, naming each attack by its key', async () => {
    const error = await refusal(path.join(fixtures, 'hostile.yaml'));
    const found = error.issues.map((issue) => `${issue.path} ${issue.code}`);
    expect(found).toEqual(
      expect.arrayContaining([
        '__proto__ unknown_key',
        'constructor unknown_key',
        'harnesses["\\u202eevil"] invalid_name',
        'harnesses.hasOwnProperty invalid_name',
        'standing.sessions[0].name invalid_name',
        'standing.sessions[1].name invalid_name',
        'standing.sessions[2]["\\u001b]0;owned\\u0007"] unknown_key',
        'slack.authorizedUsers[0] invalid_value',
        'slack.command invalid_value',
        'tmux.socket invalid_value',
        'http.port wrong_type',
      ]),
    );
  });

  it('pollutes no prototype', async () => {
    await refusal(path.join(fixtures, 'hostile.yaml'));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('prints no control or bidi character from the file', async () => {
    const error = await refusal(path.join(fixtures, 'hostile.yaml'));
    expect(controlCharacters(error.message)).toEqual([]);
  });
});
