import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseSlashCommand,
  slashUsage,
  type SlashCommand,
} from '../../../../src/slack/commands/parse-slash-command.js';
import { slashSubcommands } from '../../../../src/slack/commands/slash-subcommands.js';

describe('parseSlashCommand', () => {
  it.each<[string, SlashCommand]>([
    ['', { verb: 'help' }],
    ['   \n', { verb: 'help' }],
    ['help', { verb: 'help' }],
    ['HELP me please', { verb: 'help' }],
    ['list', { verb: 'list' }],
    ['  List  ', { verb: 'list' }],
    ['status', { verb: 'status' }],
    ['delete sup', { verb: 'delete', name: 'sup' }],
    ['start sup-2', { verb: 'start', name: 'sup-2' }],
    ['STOP sup', { verb: 'stop', name: 'sup' }],
    ['restart   a1 ', { verb: 'restart', name: 'a1' }],
    ['create sup', { verb: 'create', name: 'sup' }],
    ['create sup harness=shell', { verb: 'create', name: 'sup', harness: 'shell' }],
    ['create sup cwd=../repo', { verb: 'create', name: 'sup', cwd: '../repo' }],
    ['create sup cwd="my repo" go', { verb: 'create', name: 'sup', cwd: 'my repo', brief: 'go' }],
    ["create sup cwd='my repo'", { verb: 'create', name: 'sup', cwd: 'my repo' }],
    ['create sup cwd=“my repo”', { verb: 'create', name: 'sup', cwd: 'my repo' }],
    ['create sup Harness=shell', { verb: 'create', name: 'sup', harness: 'shell' }],
    [
      'create sup harness=claude cwd=. watch the build; alert if x=1',
      {
        verb: 'create',
        name: 'sup',
        harness: 'claude',
        cwd: '.',
        brief: 'watch the build; alert if x=1',
      },
    ],
    [
      'create sup fix it harness=shell',
      { verb: 'create', name: 'sup', brief: 'fix it harness=shell' },
    ],
    [
      'create sup\nline one\n\n  line two  ',
      { verb: 'create', name: 'sup', brief: 'line one\n\n  line two' },
    ],
    [
      'create sup see https://x.y/?a=b',
      { verb: 'create', name: 'sup', brief: 'see https://x.y/?a=b' },
    ],
  ])('%j', (text, expected) => {
    expect(parseSlashCommand(text)).toEqual(expected);
  });

  it.each([
    ['foo', /`foo` is not a subcommand of `\/loop`: use one of `create`, `delete`, `list`/],
    ['list all', /`\/loop list` takes nothing after it/],
    ['status x', /`\/loop status` takes nothing/],
    ['delete', /`delete` needs a session name; usage: `\/loop delete &lt;name&gt;`/],
    ['start a b', /`start` takes one name; usage: `\/loop start &lt;name&gt;`/],
    ['stop Sup', /`Sup` is not a valid name: use 1–40 characters/],
    ['restart -x', /`-x` is not a valid name/],
    [
      'create',
      /`create` needs a session name first; usage: `\/loop create &lt;name&gt; \[harness=/,
    ],
    ['create harness=shell', /`create` needs a session name first/],
    ['create UPPER', /`UPPER` is not a valid name/],
    [
      'create sup args=--yolo',
      /`args=` is not an option .* harness arguments can only come from the config/,
    ],
    [
      'create sup foo=bar',
      /`foo=` is not an option of `create`, which takes `harness=` and `cwd=`/,
    ],
    ['create sup harness=a harness=b', /`harness=` is given twice/],
    ['create sup cwd=', /`cwd=` needs a value/],
    ['create sup cwd=""', /`cwd=` needs a value/],
    ['create sup cwd="a b', /the quote after `cwd=` is never closed/],
    ['create sup cwd="a"b', /put a space after the closing quote of `cwd=`/],
    ['create sup cwd="a\tb"', /`cwd=` must not contain control characters/],
    ['create sup --harness shell', /options are written `harness=&lt;h&gt;` and `cwd=&lt;dir&gt;`/],
  ])('%j is a usage error: %s', (text, message) => {
    const parsed = parseSlashCommand(text);
    expect(parsed.verb).toBe('usage-error');
    if (parsed.verb === 'usage-error') expect(parsed.message).toMatch(message);
  });

  it('names the configured command in its usage errors', () => {
    expect(parseSlashCommand('frob', '/loop-b')).toMatchObject({
      verb: 'usage-error',
      message: expect.stringContaining('`/loop-b`'),
    });
    expect(parseSlashCommand('stop', 'loop-b')).toMatchObject({
      message: expect.stringContaining('`/loop-b stop &lt;name&gt;`'),
    });
  });

  it('shows hostile input escaped, shortened and without backticks', () => {
    const parsed = parseSlashCommand(`delete <!channel>\`${'x'.repeat(100)}`);
    expect(parsed.verb).toBe('usage-error');
    if (parsed.verb !== 'usage-error') return;
    expect(parsed.message).toContain("`&lt;!channel&gt;'xxx");
    expect(parsed.message).toContain('…`');
    expect(parsed.message).not.toContain('<!channel>');
    expect(parsed.message).not.toContain('x'.repeat(61));
  });

  it('never throws, and every name it returns is valid', () => {
    const words = fc.constantFrom(
      'create',
      'delete',
      'start',
      'LIST',
      'sup',
      'harness=',
      'cwd=',
      '"',
      '“',
      'a b',
      '=',
      ' ',
      '\n',
      'x',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(words).map((w) => w.join('')),
        ),
        (text) => {
          const parsed = parseSlashCommand(text);
          if ('name' in parsed)
            expect(parsed.name).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('slashUsage', () => {
  it('lists every subcommand once, with the configured command, as escaped mrkdwn', () => {
    const usage = slashUsage('/loop-b');
    for (const { verb } of slashSubcommands) {
      expect(usage.match(new RegExp(`^• \`/loop-b ${verb}[ \`]`, 'gm'))).toHaveLength(1);
    }
    expect(usage).toContain(
      '`/loop-b create &lt;name&gt; [harness=&lt;h&gt;] [cwd=&lt;dir&gt;] [brief…]`',
    );
    expect(usage).not.toMatch(/<(?!!date)/);
  });

  it('lists only verbs the parser knows', () => {
    for (const { verb } of slashSubcommands) {
      const parsed = parseSlashCommand(`${verb} sup`);
      expect(parsed.verb === 'usage-error' ? parsed.message : '').not.toMatch(/not a subcommand/);
    }
  });
});
