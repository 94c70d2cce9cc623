import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../../src/cli/main.js';
import type { Config } from '../../../src/config/types.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';
import { fakeIo, type FakeIoOptions } from '../../unit/cli/fake-io.js';

const run = promisify(execFile);
let dir: TempDir;
let repo: string;
/** A PATH with git and everything else, but no `claude` unless a test puts one in `bin`. */
let bin: string;

async function gitRepo(remote: string | undefined): Promise<void> {
  await run('git', ['init', '-q', repo]);
  if (remote !== undefined) await run('git', ['-C', repo, 'remote', 'add', 'origin', remote]);
}

async function cli(argv: string[], options: FakeIoOptions & { cwd?: string } = {}) {
  const fake = fakeIo({
    cwd: repo,
    ...options,
    env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, ...options.env },
  });
  const code = await main(argv, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const configFile = () => path.join(repo, '.the-loop', 'config.yaml');

beforeEach(async () => {
  dir = await makeTempDir('loop-init-');
  repo = path.join(dir.path, 'project');
  bin = path.join(dir.path, 'bin');
  await mkdir(bin);
});

afterEach(async () => {
  await dir.remove();
});

describe('the-loop init', () => {
  it.each([
    ['https', 'https://github.com/octo/widgets.git'],
    ['ssh', 'git@github.com:octo/widgets.git'],
  ])(
    'a %s origin: writes a config that config check accepts, with the repo and state ignored',
    async (_, remote) => {
      await gitRepo(remote);
      const result = await cli(['init', '--yes']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`wrote ${configFile()}`);
      expect(result.stdout).toMatch(/^1\. .*\n2\. .*\n3\. /m);
      expect(await readFile(path.join(repo, '.the-loop', '.gitignore'), 'utf8')).toMatch(
        /^state\/$/m,
      );

      const check = await cli(['config', 'check', '--json']);
      expect(check.code).toBe(0);
      const config = JSON.parse(check.stdout) as Config;
      const top = (await run('git', ['-C', repo, 'rev-parse', '--show-toplevel'])).stdout.trim();
      expect(config.github.repos).toEqual([{ repo: 'octo/widgets', path: top }]);
      expect(config.defaults.harness).toBe('shell');
      expect(config.state.root).toBe(path.join(top, '.the-loop', 'state'));

      // git itself agrees that the state folder is ignored.
      await mkdir(path.join(repo, '.the-loop', 'state'));
      await writeFile(path.join(repo, '.the-loop', 'state', 'events.jsonl'), '');
      const ignored = await run('git', [
        '-C',
        repo,
        'check-ignore',
        '.the-loop/state/events.jsonl',
      ]);
      expect(ignored.stdout.trim()).toBe('.the-loop/state/events.jsonl');
    },
  );

  it('takes claude as the default harness when it is on PATH', async () => {
    await gitRepo('https://github.com/octo/widgets');
    await writeFile(path.join(bin, 'claude'), '#!/bin/sh\n');
    await chmod(path.join(bin, 'claude'), 0o755);
    expect((await cli(['init', '--yes'])).code).toBe(0);
    const written = parse(await readFile(configFile(), 'utf8')) as {
      defaults: { harness: string };
    };
    expect(written.defaults.harness).toBe('claude');
  });

  it('works from a subfolder and writes at the repository root', async () => {
    await gitRepo('git@github.com:octo/widgets.git');
    await mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
    const result = await cli(['init', '--yes'], { cwd: path.join(repo, 'src', 'deep') });
    expect(result.code).toBe(0);
    expect(await readFile(configFile(), 'utf8')).toContain('octo/widgets');
  });

  it('without a GitHub remote, writes empty repos and says so', async () => {
    await gitRepo(undefined);
    const result = await cli(['init', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('github.repos: none');
    expect((await cli(['config', 'check'])).code).toBe(0);
  });

  it('refuses to overwrite an existing config: exit 1, naming the file, leaving it as it was', async () => {
    await gitRepo('https://github.com/octo/widgets.git');
    await mkdir(path.join(repo, '.the-loop'));
    await writeFile(configFile(), '# mine\n');
    const result = await cli(['init', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(configFile());
    expect(result.stderr).toContain('never overwrites');
    expect(await readFile(configFile(), 'utf8')).toBe('# mine\n');
  });

  it('without a terminal and without --yes: exit 2, nothing written', async () => {
    await gitRepo('https://github.com/octo/widgets.git');
    const result = await cli(['init'], { stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--yes');
    await expect(readFile(configFile(), 'utf8')).rejects.toThrow();
  });

  it('on a terminal it asks, and writes on yes', async () => {
    await gitRepo('https://github.com/octo/widgets.git');
    const { PassThrough } = await import('node:stream');
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const fake = fakeIo({ cwd: repo, env: { PATH: process.env['PATH'] ?? '' } });
    const pending = main(['init'], { ...fake.io, stdin });
    stdin.write('y\n');
    expect(await pending).toBe(0);
    expect(fake.stderr()).toContain('[Y/n]');
    expect(await readFile(configFile(), 'utf8')).toContain('octo/widgets');
  });

  it('on a terminal, no means nothing is written', async () => {
    await gitRepo('https://github.com/octo/widgets.git');
    const { PassThrough } = await import('node:stream');
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const fake = fakeIo({ cwd: repo, env: { PATH: process.env['PATH'] ?? '' } });
    const pending = main(['init'], { ...fake.io, stdin });
    stdin.write('n\n');
    expect(await pending).toBe(1);
    await expect(readFile(configFile(), 'utf8')).rejects.toThrow();
  });

  it('refuses --config (the file it writes only works at the repository root)', async () => {
    await gitRepo('https://github.com/octo/widgets.git');
    const result = await cli(['init', '--yes', '--config', 'elsewhere.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--config does not apply');
  });

  it('outside a git repository: exit 1 with the remedy', async () => {
    await mkdir(repo);
    const result = await cli(['init', '--yes'], { env: { GIT_CEILING_DIRECTORIES: dir.path } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not inside a git repository');
  });
});
