import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main, reportCliError } from '../../../src/cli/main.js';
import type { Config } from '../../../src/config/types.js';
import { fakeIo, type FakeIoOptions } from './fake-io.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { LoopError } from '../../../src/errors.js';
import { readFileSync } from 'node:fs';
import { formatHelp } from '../../../src/cli/help.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;
let config: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'loop-cli-'));
  config = path.join(dir, 'config.yaml');
  await writeFile(config, `state: { root: ${JSON.stringify(path.join(dir, 'state'))} }\n`);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[], options: FakeIoOptions = {}) {
  const fake = fakeIo({ cwd: repoRoot, ...options });
  const started = Date.now();
  const code = await main(argv, fake.io);
  return { code, ms: Date.now() - started, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('main: usage', () => {
  it.each([
    ['no command', []],
    ['an unknown command', ['launch']],
    ['an unknown subcommand', ['standing', 'launch']],
    ['an unknown flag', ['status', '--verbose']],
    ['a missing NAME', ['standing', 'restart']],
    ['an invalid NAME', ['standing', 'say', 'Not_Valid', 'hi']],
    ['--json on serve', ['serve', '--json']],
  ])('%s: usage on stderr, nothing on stdout, exit 2', async (_, argv) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain('usage:');
    expect(result.stdout).toBe('');
  });

  it('names the grammar when a NAME is invalid, before any request', async () => {
    const result = await cli(['standing', 'get', 'UPPER', '--config', config]);
    expect(result.stderr).toContain('1–40 characters of a–z, 0–9 and');
  });

  it.each([
    [['--help'], 'the-loop COMMAND'],
    [['-h'], 'the-loop COMMAND'],
    [['help'], 'the-loop COMMAND'],
    [['help', 'standing', 'create'], '--prompt-file F'],
    [['standing', 'say', '--help'], 'standing say NAME [TEXT | -]'],
    [['config', 'help'], 'config check'],
  ])('%j prints help on stdout and exits 0', async (argv, expected) => {
    const result = await cli(argv);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(expected);
    expect(result.stderr).toBe('');
  });

  it('refuses both --prompt and --prompt-file before talking to serve', async () => {
    const result = await cli([
      'standing',
      'create',
      'x',
      '--prompt',
      'a',
      '--prompt-file',
      'b',
      '--config',
      config,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not both');
  });

  it('refuses `standing say NAME` at a terminal with no text', async () => {
    const result = await cli(['standing', 'say', 'demo', '--config', config], {
      stdin: 'terminal',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`-` to read it from stdin');
  });
});

describe('main: config check', () => {
  it('checks .the-loop/config.yaml under the cwd by default', async () => {
    const result = await cli(['config', 'check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `config      ${path.join(repoRoot, '.the-loop', 'config.yaml')}`,
    );
    expect(result.stdout).toContain('demo      shell in');
  });

  it('prints the resolved Config as JSON with --json', async () => {
    const result = await cli(['config', 'check', '--json', '--config', config]);
    const printed = JSON.parse(result.stdout) as Config;
    expect(result.code).toBe(0);
    expect(printed.configPath).toBe(config);
    expect(printed.state.root).toBe(path.join(dir, 'state'));
    expect(printed.harnesses['claude']?.kind).toBe('claude');
  });

  it('takes THE_LOOP_CONFIG, relative to the cwd, and --config over it', async () => {
    const fromEnv = await cli(['config', 'check', '--json'], {
      cwd: dir,
      env: { THE_LOOP_CONFIG: 'config.yaml' },
    });
    expect((JSON.parse(fromEnv.stdout) as Config).configPath).toBe(config);
    const flagWins = await cli(['config', 'check'], {
      env: { THE_LOOP_CONFIG: path.join(dir, 'missing.yaml') },
    });
    expect(flagWins.code).toBe(2);
    const overridden = await cli(['config', 'check', '--config', config], {
      env: { THE_LOOP_CONFIG: path.join(dir, 'missing.yaml') },
    });
    expect(overridden.code).toBe(0);
  });

  it('refuses a broken config with exit 2, naming every key path', async () => {
    const broken = path.join(dir, 'broken.yaml');
    await writeFile(
      broken,
      'standing:\n  sessions:\n    - name: Bad_Name\n  autostart: true\nslack:\n  command: nope\n',
    );
    const result = await cli(['config', 'check', '--config', broken]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: config ${broken} is refused (3 problems`);
    expect(result.stderr).toContain('  standing.sessions[0].name: ');
    expect(result.stderr).toContain('  standing.autostart: ');
    expect(result.stderr).toContain('  slack.command: ');
  });

  it('says how to name another file when the config is missing', async () => {
    const result = await cli(['config', 'check', '--config', path.join(dir, 'nope.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--config or THE_LOOP_CONFIG');
  });
});

describe('main: client commands with serve down', () => {
  it.each([
    [['status']],
    [['instance']],
    [['standing', 'list', '--json']],
    [['standing', 'get', 'demo']],
    [['standing', 'start']],
    [['standing', 'stop', 'demo']],
    [['standing', 'say', 'demo', 'hello']],
    [['standing', 'create', 'extra', '--no-start']],
  ])('%j says how to start serve and exits 1', async (argv) => {
    const result = await cli([...argv, '--config', config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not running at');
    expect(result.stderr).toContain('the-loop serve');
    expect(result.stdout).toBe('');
  });

  it('refuses a client command on a broken config with exit 2', async () => {
    const broken = path.join(dir, 'broken.yaml');
    await writeFile(broken, 'state: { rooot: x }\n');
    const result = await cli(['standing', 'list', '--config', broken]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('state.rooot');
  });
});

describe('main: post', () => {
  it('exits 2 outside a session', async () => {
    const result = await cli(['post', 'hello']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('run this from inside a session started by the-loop');
  });

  it('exits 2 for a --file without a path', async () => {
    const env = { THE_LOOP_SESSION_TOKEN: 't', THE_LOOP_SOCKET: path.join(dir, 'x.sock') };
    const result = await cli(['post', 'hello', '--file'], { env });
    expect(result.code).toBe(2);
  });

  it('exits 1 and says so when serve is down', async () => {
    const env = { THE_LOOP_SESSION_TOKEN: 't', THE_LOOP_SOCKET: path.join(dir, 'x.sock') };
    const result = await cli(['post', 'hello'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the-loop serve');
  });

  it('exits 1 naming the file it cannot read', async () => {
    const env = { THE_LOOP_SESSION_TOKEN: 't', THE_LOOP_SOCKET: path.join(dir, 'x.sock') };
    const result = await cli(['post', '--file', 'nope.md'], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(path.join(dir, 'nope.md'));
  });
});

describe('main: hook never blocks the agent', () => {
  const sessionEnv = () => ({
    THE_LOOP_SESSION_TOKEN: 'token',
    THE_LOOP_SOCKET: path.join(dir, 'missing.sock'),
  });

  it.each<[string, string[], FakeIoOptions['stdin'], () => NodeJS.ProcessEnv]>([
    ['serve is down', ['hook', 'Stop'], '{"last_assistant_message":"hi"}', sessionEnv],
    ['stdin never closes', ['hook', 'SessionStart'], 'endless', sessionEnv],
    ['the JSON is invalid', ['hook', 'Stop'], '{not json', sessionEnv],
    ['it is not in a session', ['hook', 'Stop'], '{}', () => ({})],
    ['the EVENT is missing', ['hook'], '{}', sessionEnv],
    ['a flag is unknown', ['hook', 'Stop', '--verbose'], '{}', sessionEnv],
  ])('exits 0 within a second when %s, printing nothing on stdout', async (_, argv, stdin, env) => {
    const result = await cli(argv, { stdin, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.ms).toBeLessThan(1000);
  });
});

describe('main: serve', () => {
  it('refuses a broken config with exit 2 before starting anything', async () => {
    await writeFile(config, 'standing: { autoStart: maybe }\n');
    const result = await cli(['serve', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('standing.autoStart: ');
    expect(result.stdout).toBe('');
  });

  it('refuses an unknown log level with exit 2', async () => {
    const result = await cli(['serve', '--config', config], {
      env: { THE_LOOP_LOG_LEVEL: 'loud' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('THE_LOOP_LOG_LEVEL');
  });
});

describe('main: manifest', () => {
  it('prints YAML naming the app and slash command after the instance', async () => {
    await writeFile(config, 'instance: { name: laptop-b }\nslack: { command: /loop-b }\n');
    const result = await cli(['manifest', '--config', config]);
    const manifest = parse(result.stdout) as {
      display_information: { name: string };
      features: { slash_commands: { command: string }[] };
      settings: { socket_mode_enabled: boolean };
    };
    expect(result.code).toBe(0);
    expect(manifest.display_information.name).toBe('the-loop-laptop-b');
    expect(manifest.features.slash_commands[0]?.command).toBe('/loop-b');
    expect(manifest.settings.socket_mode_enabled).toBe(true);
  });

  it('prints the same manifest as JSON with --json', async () => {
    const yaml = await cli(['manifest', '--config', config]);
    const json = await cli(['manifest', '--json', '--config', config]);
    expect(JSON.parse(json.stdout)).toEqual(parse(yaml.stdout));
  });
});

function report(error: unknown): { code: number; text: string } {
  const written: string[] = [];
  const code = reportCliError(error, { write: (text: string) => written.push(text) });
  return { code, text: written.join('') };
}

describe('reportCliError', () => {
  it('lists every config issue with its key path and exits 2', () => {
    const { code, text } = report(
      new ConfigError('/c.yaml', [
        { path: 'standing.sessions[1].name', code: 'invalid_name', message: 'bad name' },
        { path: '', code: 'yaml_syntax', message: 'fix the file' },
      ]),
    );
    expect(code).toBe(2);
    expect(text).toBe(
      'error: config /c.yaml is refused (2 problems; nothing was applied):\n' +
        '  standing.sessions[1].name: bad name\n  fix the file\n',
    );
  });

  it('prints serve_not_running as it is, and exits 1', () => {
    const { code, text } = report(
      new LoopError('serve_not_running', 'start it with `the-loop serve`'),
    );
    expect({ code, text }).toEqual({ code: 1, text: 'start it with `the-loop serve`\n' });
  });

  it.each<[string, LoopError, number]>([
    ['a refusal from serve', new LoopError('name_taken', 'taken', { status: 409 }), 1],
    ['a config refusal from serve', new LoopError('config_invalid', 'bad', { status: 400 }), 1],
    ['a local config problem', new LoopError('config_invalid', 'api.listen is wrong'), 2],
    ['a local failure', new LoopError('conflict', 'another serve is running'), 1],
  ])('prints %s after error: and picks its exit code', (_, error, expected) => {
    const { code, text } = report(error);
    expect(code).toBe(expected);
    expect(text).toBe(`error: ${error.message}\n`);
  });

  it('prints anything else by its message, exit 1', () => {
    expect(report(new TypeError('boom'))).toEqual({ code: 1, text: 'error: boom\n' });
  });
});

const { version } = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('the-loop --version', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const fake = fakeIo();
    expect(await main([flag], fake.io)).toBe(0);
    expect(fake.stdout()).toBe(`${version}\n`);
  });

  it('is named in the top-level help', () => {
    expect(formatHelp('')).toContain('the-loop --version');
  });
});
