import { describe, expect, it } from 'vitest';
import { decideGithub, type GithubDecision } from '../../../src/github/decide-github.js';
import { githubConfig } from '../../helpers/github-config.js';

const token = 'ghs_token';
const secret = 'webhook-secret';

const config = (host: string, allowUnsigned: boolean, poll = false) =>
  githubConfig({
    http: { host, port: 3000 },
    github: {
      repos: [{ repo: 'octo/repo', path: 'repo' }],
      webhook: { allowUnsigned },
      poll: { enabled: poll, intervalSeconds: 30 },
    },
  });

const pollNote = 'github: poller off — set github.poll.enabled to poll for comments';
const secretNote = 'github: webhook off — set GITHUB_WEBHOOK_SECRET to turn it on';

describe('decideGithub', () => {
  it('stays off without GITHUB_TOKEN, naming the variables that turn it on', () => {
    expect(decideGithub(config('127.0.0.1', true), { GITHUB_WEBHOOK_SECRET: secret })).toEqual({
      on: false,
      reason:
        'github: off — set GITHUB_TOKEN (and GITHUB_WEBHOOK_SECRET for webhooks) to turn it on',
    } satisfies GithubDecision);
    expect(decideGithub(config('127.0.0.1', false), { GITHUB_TOKEN: '' }).on).toBe(false);
  });

  it('turns the webhook on with a secret, whatever the host', () => {
    expect(
      decideGithub(config('0.0.0.0', false), {
        GITHUB_TOKEN: token,
        GITHUB_WEBHOOK_SECRET: secret,
      }),
    ).toEqual({
      on: true,
      plan: { token, webhookSecret: secret, poll: false, notes: [pollNote] },
    } satisfies GithubDecision);
  });

  it.each<[string, string, boolean, string | undefined, string[]]>([
    ['no secret: the webhook is off', '127.0.0.1', false, undefined, [secretNote]],
    ['allowUnsigned on 127.0.0.1', '127.0.0.1', true, '', []],
    ['allowUnsigned on ::1', '::1', true, '', []],
    ['allowUnsigned on localhost', 'localhost', true, '', []],
    [
      'allowUnsigned on 0.0.0.0 is refused',
      '0.0.0.0',
      true,
      undefined,
      ['github: webhook off — allowUnsigned works only on a loopback http.host, not 0.0.0.0'],
    ],
    [
      'allowUnsigned on a LAN address is refused',
      '192.168.1.20',
      true,
      undefined,
      ['github: webhook off — allowUnsigned works only on a loopback http.host, not 192.168.1.20'],
    ],
  ])('%s', (_label, host, allowUnsigned, webhookSecret, webhookNotes) => {
    const decision = decideGithub(config(host, allowUnsigned, true), { GITHUB_TOKEN: token });
    expect(decision).toEqual({
      on: true,
      plan: {
        token,
        ...(webhookSecret === undefined ? {} : { webhookSecret }),
        poll: true,
        notes: webhookNotes,
      },
    } satisfies GithubDecision);
  });

  it('prefers a secret over allowUnsigned', () => {
    const decision = decideGithub(config('127.0.0.1', true), {
      GITHUB_TOKEN: token,
      GITHUB_WEBHOOK_SECRET: secret,
    });
    expect(decision.on && decision.plan.webhookSecret).toBe(secret);
  });

  it('notes that the poller is off, and says nothing of it when it is on', () => {
    const env = { GITHUB_TOKEN: token, GITHUB_WEBHOOK_SECRET: secret };
    const off = decideGithub(config('127.0.0.1', false, false), env);
    const on = decideGithub(config('127.0.0.1', false, true), env);
    expect(off.on && off.plan).toMatchObject({ poll: false, notes: [pollNote] });
    expect(on.on && on.plan).toMatchObject({ poll: true, notes: [] });
  });

  it('passes GITHUB_API_URL on, and leaves an empty one out', () => {
    const ghes = decideGithub(config('127.0.0.1', false), {
      GITHUB_TOKEN: token,
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
    });
    expect(ghes.on && ghes.plan.apiUrl).toBe('https://ghe.example.com/api/v3');
    const empty = decideGithub(config('127.0.0.1', false), {
      GITHUB_TOKEN: token,
      GITHUB_API_URL: '',
    });
    expect(empty.on && 'apiUrl' in empty.plan).toBe(false);
  });

  it('never puts the token or the secret in a note', () => {
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      for (const allowUnsigned of [true, false]) {
        const decision = decideGithub(config(host, allowUnsigned), {
          GITHUB_TOKEN: token,
          GITHUB_WEBHOOK_SECRET: allowUnsigned ? '' : secret,
        });
        const notes = decision.on ? decision.plan.notes.join('\n') : decision.reason;
        expect(notes).not.toContain(token);
        expect(notes).not.toContain(secret);
      }
    }
  });
});
