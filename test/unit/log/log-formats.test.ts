import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { chooseLogFormat } from '../../../src/log/choose-log-format.js';
import { createLogger, type LogFormat } from '../../../src/log/create-logger.js';
import { formatLogLine } from '../../../src/log/format-log-line.js';
import { fakeIo } from '../cli/fake-io.js';

function loggerInto(format: LogFormat | undefined) {
  const written: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (text: string) => written.push(text) },
    ...(format === undefined ? {} : { format }),
  });
  return { logger, text: () => written.join('') };
}

const secrets = {
  token: 'xoxb-secret-bot-token',
  headers: { authorization: 'Bearer ghp_secretGithubToken' },
  env: { SLACK_APP_TOKEN: 'xapp-secret-app-token', GITHUB_WEBHOOK_SECRET: 'whsec-secret' },
  session: { sessionToken: 'st-secret-session-token' },
};

describe('chooseLogFormat', () => {
  it.each([
    [undefined, true, 'pretty'],
    [undefined, false, 'json'],
    ['', true, 'pretty'],
    ['json', true, 'json'],
    ['pretty', false, 'pretty'],
  ] as const)('THE_LOOP_LOG_FORMAT=%s, terminal %s → %s', (setting, terminal, format) => {
    expect(chooseLogFormat(setting, terminal)).toEqual({ format });
  });

  it('names the allowed values for anything else', () => {
    const choice = chooseLogFormat('yaml', true);
    expect(choice.format).toBeUndefined();
    expect('problem' in choice && choice.problem).toContain('set it to json or pretty');
  });
});

describe('the log formats', () => {
  it('json (the default): one JSON object a line, with the stable event name', () => {
    const { logger, text } = loggerInto(undefined);
    logger.info({ event: 'delivery.delivered', ref: 'standing:demo' }, 'delivered');
    const lines = text().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 30,
      event: 'delivery.delivered',
      ref: 'standing:demo',
      msg: 'delivered',
    });
  });

  it('pretty: time, level, event, fields and message on one readable line', () => {
    const { logger, text } = loggerInto('pretty');
    logger.warn({ event: 'state.root_too_open', root: '/tmp/x y', mode: '0755' }, 'too open');
    expect(text()).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}state\.root_too_open root="\/tmp\/x y" mode=0755 — too open\n$/,
    );
    expect(() => JSON.parse(text()) as unknown).toThrow();
  });

  it('pretty: an error shows its message and stack on the lines below', () => {
    const { logger, text } = loggerInto('pretty');
    logger.error({ event: 'slack.failed', err: new Error('socket closed') }, 'slack failed');
    const [first, ...rest] = text().trimEnd().split('\n');
    expect(first).toMatch(/ERROR slack\.failed — slack failed$/);
    expect(rest[0]).toBe('    Error: socket closed');
    expect(rest.length).toBeGreaterThan(1);
  });

  it.each(['json', 'pretty'] as const)('%s: secrets are redacted', (format) => {
    const { logger, text } = loggerInto(format);
    logger.info({ event: 'test.secrets', ...secrets }, 'with secrets');
    const output = text();
    expect(output).toContain('[redacted]');
    for (const secret of [
      'xoxb-secret-bot-token',
      'ghp_secretGithubToken',
      'xapp-secret-app-token',
      'whsec-secret',
      'st-secret-session-token',
    ]) {
      expect(output).not.toContain(secret);
    }
  });

  it('pretty: a message that only repeats the event name is shown once', () => {
    const { logger, text } = loggerInto('pretty');
    logger.info({ event: 'api.request', status: 200 }, 'api.request');
    expect(text()).toMatch(/ INFO {2}api\.request status=200\n$/);
  });

  it('formatLogLine leaves a line that is not a JSON object as it is', () => {
    expect(formatLogLine('plain text')).toBe('plain text');
    expect(formatLogLine('[1,2]')).toBe('[1,2]');
  });
});

describe('serve and THE_LOOP_LOG_FORMAT', () => {
  it('refuses an unknown format with exit 2 before anything starts', async () => {
    const fake = fakeIo({ env: { THE_LOOP_LOG_FORMAT: 'yaml' } });
    expect(await main(['serve', '--config', '/nonexistent/config.yaml'], fake.io)).toBe(2);
    expect(fake.stderr()).toContain('THE_LOOP_LOG_FORMAT is `yaml`');
    expect(fake.stdout()).toBe('');
  });
});
