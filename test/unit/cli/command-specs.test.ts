import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandHandlers } from '../../../src/cli/command-handlers.js';
import { commandSpecs, globalFlags } from '../../../src/cli/command-specs.js';
import { formatHelp, formatUsage } from '../../../src/cli/help.js';

const docs = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');

/** The command table is the one source: the usage lines, the help and docs/cli.md must agree. */
describe('the command table', () => {
  it('holds the commands docs/design.md §3.1 pins, each with a handler', () => {
    expect(commandSpecs.map((spec) => spec.id).sort()).toEqual(
      [
        'serve',
        'status',
        'instance',
        'fleet',
        'standing list',
        'standing get',
        'standing create',
        'standing delete',
        'standing start',
        'standing stop',
        'standing restart',
        'standing say',
        'post',
        'hook',
        'mcp',
        'config check',
        'reload',
        'manifest',
        'workitem list',
        'workitem start',
        'workitem stop',
        'doctor',
        'init',
        'permissions',
        'dashboard',
      ].sort(),
    );
    expect(Object.keys(commandHandlers).sort()).toEqual(commandSpecs.map((spec) => spec.id).sort());
  });

  it.each(commandSpecs.map((spec) => [spec.id, spec] as const))(
    '`%s`: usage, help and docs name every flag',
    (id, spec) => {
      expect(spec.usage.startsWith(id)).toBe(true);
      const help = formatHelp(id);
      expect(formatUsage(id)).toContain(`the-loop ${id}`);
      expect(docs).toContain(`## \`the-loop ${id}`);
      for (const flag of spec.flags) {
        expect(spec.usage).toContain(`--${flag.name}`);
        expect(help).toContain(`--${flag.name}`);
        expect(docs).toContain(`--${flag.name}`);
      }
      expect(help.includes('--json')).toBe(spec.json);
    },
  );

  it('lists every command in the top-level help, and the global flags', () => {
    const help = formatHelp('');
    for (const spec of commandSpecs) expect(help).toContain(spec.id);
    for (const flag of globalFlags) {
      expect(help).toContain(`--${flag.name}`);
      expect(docs).toContain(`--${flag.name}`);
    }
  });

  it('gives a group its own commands only', () => {
    const help = formatHelp('standing');
    expect(help).toContain('standing say NAME [TEXT | -]');
    expect(help).not.toMatch(/^ {2}config check /m);
  });
});
