import { describe, expect, it } from 'vitest';
import { createRedactor, ownSecrets } from '../../../src/redact/redact-text.js';

const botToken = 'xoxb-1111-2222-abcdefabcdef';
const webhookSecret = 'whsec-9f8e7d6c5b4a39281706';
const signingSecret = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const env = {
  SLACK_BOT_TOKEN: botToken,
  SLACK_SIGNING_SECRET: signingSecret,
  GITHUB_WEBHOOK_SECRET: webhookSecret,
  SLACK_API_URL: 'https://slack.com/api/',
  GITHUB_API_URL: 'https://api.github.com',
  THE_LOOP_API_TOKEN: 'loop-api-token-0123456789',
  HOME: '/home/dana',
};
const redactor = createRedactor(ownSecrets(env));

describe('the redactor', () => {
  it.each([
    ['an own secret value anywhere', `look: x${signingSecret}y`, 'look: x[redacted]y'],
    ['the webhook secret', `secret is ${webhookSecret}.`, 'secret is [redacted].'],
    ['the API token', 'use loop-api-token-0123456789 now', 'use [redacted] now'],
    [
      'an own secret cut short by an ellipsis',
      `echo ${signingSecret.slice(0, 20)}…`,
      'echo [redacted]…',
    ],
    ['an own secret cut short at the end', `echo ${signingSecret.slice(0, 12)}`, 'echo [redacted]'],
    ['a Slack bot token', 'xoxb-999-888-zzz', '[redacted]'],
    ['a Slack user token', 'token xoxp-12-34-abc', 'token [redacted]'],
    ['a Slack app token', 'xapp-1-A0-123-abc', '[redacted]'],
    ['a GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', '[redacted]'],
    ['a GitHub server token', 'gho_ABCDEF123456', '[redacted]'],
    ['a fine-grained GitHub token', 'github_pat_11AAAA_bbbb', '[redacted]'],
    ['an OpenAI-style key', 'sk-live-abcdef0123', '[redacted]'],
    ['an Anthropic key', 'sk-ant-api03-xyz', '[redacted]'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE', '[redacted]'],
    [
      'a private key block',
      'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nend',
      'key:\n[redacted]\nend',
    ],
    ['a cut private key block', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn…', '[redacted]'],
    [
      'a bearer header',
      'curl -H "Authorization: Bearer abc.def-123"',
      'curl -H "Authorization: Bearer [redacted]"',
    ],
    ['NAME=value', 'API_KEY=live-123 npm test', 'API_KEY=[redacted] npm test'],
    ['a lower-case name', 'export db_password=hunter2;', 'export db_password=[redacted];'],
    ['a quoted value', 'MY_SECRET="two words" x', 'MY_SECRET=[redacted] x'],
    [
      'PASSWD and CREDENTIAL',
      'PASSWD=a AWS_CREDENTIALS=b',
      'PASSWD=[redacted] AWS_CREDENTIALS=[redacted]',
    ],
    ['a JSON field', '{"apiKey": "abc", "name": "x"}', '{"apiKey": "[redacted]", "name": "x"}'],
    ['a JSON token field', '"access_token":"a\\"b"', '"access_token":"[redacted]"'],
    ['a Bearer token of a known shape', 'Bearer ghp_abcdefghij', 'Bearer [redacted]'],
  ])('catches %s', (_what, input, expected) => {
    expect(redactor.text(input)).toBe(expected);
  });

  it.each([
    ['plain prose', 'The build is green; 12 tests ran.'],
    [
      'a URL that is an own non-secret variable',
      'see https://api.github.com and https://slack.com/api/',
    ],
    ['a name without a value', 'set API_KEY in your shell'],
    ['a Slack mention and link', '<@U0DANA> see <https://x.test|the log>'],
    ['a short sk- word', 'sk-learn is a library'],
    ['a permission id', 'p-abcdefghij'],
  ])('leaves %s alone', (_what, input) => {
    expect(redactor.text(input)).toBe(input);
  });

  it('is idempotent', () => {
    const once = redactor.text(`API_KEY=${botToken} Bearer x ${webhookSecret}`);
    expect(redactor.text(once)).toBe(once);
  });

  it("names the own secret a file holds, and only the-loop's own", () => {
    expect(redactor.secretIn(Buffer.from(`SLACK=${botToken}\n`))).toBe('SLACK_BOT_TOKEN');
    expect(redactor.secretIn(Buffer.from('ghp_abcdefghijklmnopqrstuvwxyz0123456789'))).toBe(
      undefined,
    );
    expect(redactor.secretIn(Buffer.from('https://api.github.com'))).toBe(undefined);
  });
});
