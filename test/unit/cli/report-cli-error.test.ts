import { describe, expect, it } from 'vitest';
import { reportCliError } from '../../../src/cli/report-cli-error.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { LoopError } from '../../../src/errors.js';

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
