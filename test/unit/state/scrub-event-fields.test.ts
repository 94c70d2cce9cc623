import { describe, expect, it } from 'vitest';
import { isForbiddenFieldName, scrubEventFields } from '../../../src/state/scrub-event-fields.js';

describe('isForbiddenFieldName', () => {
  it.each([
    ['token', true],
    ['Token', true],
    ['sessionToken', true],
    ['SLACK_BOT_TOKEN', true],
    ['x-the-loop-session-token', true],
    ['secret', true],
    ['signingSecret', true],
    ['authorization', true],
    ['Authorization', true],
    ['proxy-authorization', true],
    ['password', true],
    ['cookie', true],
    ['text', true],
    ['TEXT', true],
    ['body', true],
    ['prompt', true],
    ['ref', false],
    ['origin', false],
    ['context', false],
    ['tokens', false],
    ['tokenCount', false],
    ['textLength', false],
    ['eventId', false],
    ['deliveryId', false],
  ])('%s → %s', (name, forbidden) => {
    expect(isForbiddenFieldName(name)).toBe(forbidden);
  });
});

describe('scrubEventFields', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'keeps plain fields',
      { ref: 'standing:sup', n: 1, ok: true },
      { ref: 'standing:sup', n: 1, ok: true },
    ],
    ['drops a token', { ref: 'r', token: 'xoxb-1' }, { ref: 'r' }],
    ['drops a secret', { secret: 's', signingSecret: 's' }, {}],
    ['drops authorization', { authorization: 'Bearer t', Authorization: 'Bearer t' }, {}],
    ['drops message text', { ref: 'r', text: 'hello', body: 'b', prompt: 'p' }, { ref: 'r' }],
    [
      'drops nested secrets and text',
      {
        origin: { kind: 'slack', text: 'hi', user: 'U1' },
        headers: { authorization: 'x', host: 'h' },
      },
      { origin: { kind: 'slack', user: 'U1' }, headers: { host: 'h' } },
    ],
    [
      'drops inside arrays',
      { items: [{ id: 1, token: 't' }, { id: 2 }] },
      { items: [{ id: 1 }, { id: 2 }] },
    ],
    ['cannot forge ts or event', { ts: 'forged', event: 'forged', ref: 'r' }, { ref: 'r' }],
    ['renders bigint as text', { size: 10n }, { size: '10' }],
    ['drops functions and undefined', { f: () => 1, u: undefined, k: 1 }, { k: 1 }],
    [
      'renders dates as ISO',
      { at: new Date('2024-01-02T03:04:05.000Z') },
      { at: '2024-01-02T03:04:05.000Z' },
    ],
    ['renders an invalid date as null', { at: new Date(NaN) }, { at: null }],
    ['renders a URL as text', { url: new URL('https://x.test/a') }, { url: 'https://x.test/a' }],
    [
      'scrubs what toJSON returns',
      { thing: { toJSON: () => ({ id: 1, token: 't' }) } },
      { thing: { id: 1 } },
    ],
    [
      'reduces an error to name, message and code',
      { err: Object.assign(new Error('boom'), { code: 'EACCES', token: 't' }) },
      { err: { name: 'Error', message: 'boom', code: 'EACCES' } },
    ],
  ])('%s', (_label, input, expected) => {
    expect(scrubEventFields(input)).toEqual(expected);
  });

  it('cuts off cycles instead of following them', () => {
    const loop: Record<string, unknown> = { name: 'a' };
    loop.self = loop;
    const scrubbed = scrubEventFields({ loop });
    expect(() => JSON.stringify(scrubbed)).not.toThrow();
    expect(JSON.stringify(scrubbed)).toContain('[truncated]');
  });

  it('does not change its input', () => {
    const input = { token: 't', nested: { text: 'x' } };
    scrubEventFields(input);
    expect(input).toEqual({ token: 't', nested: { text: 'x' } });
  });
});
