import { describe, expect, it } from 'vitest';
import { parseCliArgs, type ParsedCli } from '../../../src/cli/parse-cli-args.js';

const run = (
  command: string,
  args: Record<string, string> = {},
  flags: Record<string, string | true | readonly string[]> = {},
): ParsedCli => ({ kind: 'run', command, args, flags }) as ParsedCli;

describe('parseCliArgs', () => {
  it.each<[string, string[], ParsedCli]>([
    ['a plain command', ['status'], run('status')],
    ['a two-word command', ['standing', 'list'], run('standing list')],
    [
      '--json after the command',
      ['standing', 'list', '--json'],
      run('standing list', {}, { json: true }),
    ],
    ['--json before the command', ['--json', 'status'], run('status', {}, { json: true })],
    [
      '--config before the command words',
      ['--config', 'x.yaml', 'standing', 'get', 'demo'],
      run('standing get', { name: 'demo' }, { config: 'x.yaml' }),
    ],
    [
      '--config=PATH',
      ['config', 'check', '--config=a=b.yaml'],
      run('config check', {}, { config: 'a=b.yaml' }),
    ],
    [
      'every create flag',
      [
        'standing',
        'create',
        'sup',
        '--harness',
        'claude',
        '--cwd',
        '../x',
        '--prompt',
        '-starts with dash',
        '--description',
        'd',
        '--slack-channel',
        'C1',
        '--no-start',
        '--no-auto-start',
      ],
      run(
        'standing create',
        { name: 'sup' },
        {
          harness: 'claude',
          cwd: '../x',
          prompt: '-starts with dash',
          description: 'd',
          'slack-channel': 'C1',
          'no-start': true,
          'no-auto-start': true,
        },
      ),
    ],
    ['an optional NAME left out', ['standing', 'start'], run('standing start')],
    ['an optional NAME given', ['standing', 'stop', 'sup'], run('standing stop', { name: 'sup' })],
    [
      'say with text',
      ['standing', 'say', 'sup', 'hello there'],
      run('standing say', { name: 'sup', text: 'hello there' }),
    ],
    [
      'say with -',
      ['standing', 'say', 'sup', '-'],
      run('standing say', { name: 'sup', text: '-' }),
    ],
    [
      'text after --',
      ['standing', 'say', 'sup', '--', '--not-a-flag'],
      run('standing say', { name: 'sup', text: '--not-a-flag' }),
    ],
    ['post --file', ['post', '--file', 'out.md'], run('post', {}, { file: ['out.md'] })],
    [
      'post --file, repeated',
      ['post', 'see these', '--file', 'a.log', '--file=b.png'],
      run('post', { text: 'see these' }, { file: ['a.log', 'b.png'] }),
    ],
    ['hook EVENT', ['hook', 'Stop'], run('hook', { event: 'Stop' })],
    [
      'a name that is the word help',
      ['standing', 'get', 'help'],
      run('standing get', { name: 'help' }),
    ],
  ])('reads %s', (_, argv, expected) => {
    expect(parseCliArgs(argv)).toEqual(expected);
  });

  it.each<[string, string[], string]>([
    ['--help', ['--help'], ''],
    ['-h on a command', ['standing', 'create', '-h'], 'standing create'],
    ['help first', ['help'], ''],
    ['help COMMAND', ['help', 'standing', 'say'], 'standing say'],
    ['a group then help', ['standing', 'help'], 'standing'],
    ['--help beats a bad flag', ['standing', 'list', '--bogus', '--help'], 'standing list'],
    ['--help beats a missing NAME', ['standing', 'get', '--help'], 'standing get'],
  ])('asks for help with %s', (_, argv, topic) => {
    expect(parseCliArgs(argv)).toEqual({ kind: 'help', topic });
  });

  it.each<[string, string[], string, string]>([
    ['nothing', [], '', 'name a command'],
    ['an unknown command', ['bogus'], '', 'unknown command `bogus`'],
    [
      'an unknown subcommand',
      ['standing', 'bogus'],
      'standing',
      'unknown command `bogus` in `the-loop standing`',
    ],
    ['a group alone', ['standing'], 'standing', 'name a `the-loop standing` command'],
    [
      'an unknown flag',
      ['status', '--bogus'],
      'status',
      'unknown option `--bogus` for `the-loop status`',
    ],
    ['a short flag', ['status', '-x'], 'status', 'unknown option `-x`'],
    [
      'a flag of another command',
      ['standing', 'list', '--harness', 'x'],
      'standing list',
      'unknown option `--harness`',
    ],
    [
      'a missing value',
      ['standing', 'create', 'a', '--cwd'],
      'standing create',
      '--cwd needs a value (DIR)',
    ],
    [
      'a value on a switch',
      ['standing', 'create', 'a', '--no-start=yes'],
      'standing create',
      '--no-start takes no value',
    ],
    [
      'a repeated flag',
      ['standing', 'create', 'a', '--prompt', 'x', '--prompt', 'y'],
      'standing create',
      '--prompt is given twice',
    ],
    ['a missing NAME', ['standing', 'get'], 'standing get', 'missing NAME'],
    [
      'an invalid NAME',
      ['standing', 'get', 'Bad_Name'],
      'standing get',
      '`Bad_Name` is not a valid name',
    ],
    [
      'a NAME with a newline',
      ['standing', 'say', 'abc\n', 'hi'],
      'standing say',
      '`abc\\n` is not a valid name',
    ],
    [
      'an extra argument',
      ['standing', 'list', 'extra'],
      'standing list',
      'unexpected argument `extra`',
    ],
    [
      'unquoted text',
      ['standing', 'say', 'sup', 'two', 'words'],
      'standing say',
      'quote text that has spaces',
    ],
    [
      '--json where there is none',
      ['serve', '--json'],
      'serve',
      '`the-loop serve` has no --json output',
    ],
    ['a missing EVENT', ['hook'], 'hook', 'missing EVENT'],
  ])('refuses %s', (_, argv, topic, message) => {
    const parsed = parseCliArgs(argv);
    expect(parsed).toMatchObject({ kind: 'usage-error', topic });
    expect(parsed.kind === 'usage-error' ? parsed.message : '').toContain(message);
  });

  it('shows control characters in an unknown command escaped', () => {
    const parsed = parseCliArgs(['\u001b[31mred']);
    expect(parsed.kind === 'usage-error' ? parsed.message : '').toContain('`\\u001b[31mred`');
  });
});
