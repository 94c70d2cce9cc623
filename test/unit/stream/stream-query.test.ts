import { describe, expect, it } from 'vitest';
import { LoopError } from '../../../src/errors.js';
import {
  formatSseEvent,
  matchesFilter,
  parseStreamQuery,
  type StreamFilter,
} from '../../../src/stream/stream-query.js';

const parse = (query: string, lastEventId?: string) =>
  parseStreamQuery(new URLSearchParams(query), lastEventId);

describe('parseStreamQuery', () => {
  it.each([
    ['', undefined, { filter: {} }],
    ['since=0', undefined, { since: 0, filter: {} }],
    ['since=120', undefined, { since: 120, filter: {} }],
    ['since=120', '7', { since: 7, filter: {} }],
    ['', '', { filter: {} }],
    ['ref=standing:alpha', undefined, { filter: { ref: 'standing:alpha' } }],
    ['ref=github:Octo/Repo%2312', undefined, { filter: { ref: 'github:Octo/Repo#12' } }],
    [
      'ref=https://github.com/octo/repo/pull/3',
      undefined,
      { filter: { ref: 'github:octo/repo#3' } },
    ],
    [
      'events=agent.state,delivery.*, permission*',
      undefined,
      { filter: { events: ['agent.state', 'delivery.*', 'permission*'] } },
    ],
    ['events=*', undefined, { filter: { events: ['*'] } }],
  ])('reads ?%s (Last-Event-ID %s)', (query, lastEventId, expected) => {
    expect(parse(query, lastEventId)).toEqual(expected);
  });

  it.each([
    ['since=01'],
    ['since=1e3'],
    ['since=99999999999999999'],
    ['ref='],
    ['ref=standing:'],
    ['ref=github:octo/repo'],
    ['events=Agent.State'],
    ['events=a.*.b'],
    ['events=a;b'],
    [`events=${Array.from({ length: 51 }, () => 'a').join(',')}`],
    ['since=1&since=2'],
    ['after=3'],
  ])('refuses ?%s as bad_request', (query) => {
    expect(() => parse(query)).toThrow(LoopError);
    try {
      parse(query);
    } catch (error) {
      expect((error as LoopError).code).toBe('bad_request');
      expect((error as LoopError).message).toMatch(/e\.g\.|use since, ref or events|give it once/);
    }
  });
});

describe('matchesFilter', () => {
  const cases: [StreamFilter, string, Record<string, unknown>, boolean][] = [
    [{}, 'anything', {}, true],
    [{ events: ['agent.state'] }, 'agent.state', {}, true],
    [{ events: ['agent.state'] }, 'agent.stated', {}, false],
    [{ events: ['delivery.*'] }, 'delivery.failed', {}, true],
    [{ events: ['delivery.*'] }, 'deliveryx', {}, false],
    [{ events: ['*'] }, 'serve.started', {}, true],
    [{ ref: 'standing:a' }, 'agent.state', { ref: 'standing:a' }, true],
    [{ ref: 'standing:a' }, 'agent.state', { ref: 'standing:ab' }, false],
    [{ ref: 'standing:a' }, 'standing.created', { name: 'a' }, true],
    [{ ref: 'standing:a' }, 'slack.accepted', { name: 'a' }, false],
    [{ ref: 'standing:a' }, 'serve.started', {}, false],
    [{ ref: 'standing:a', events: ['standing.*'] }, 'standing.deleted', { name: 'a' }, true],
    [{ ref: 'standing:a', events: ['agent.*'] }, 'standing.deleted', { name: 'a' }, false],
  ];
  it.each(cases)('%j lets %s %j through: %s', (filter, event, fields, expected) => {
    expect(matchesFilter(filter, event, fields)).toBe(expected);
  });
});

describe('formatSseEvent', () => {
  it('writes id, event and data, ended by a blank line', () => {
    expect(formatSseEvent(5, 'serve.started', '{"seq":5}')).toBe(
      'id: 5\nevent: serve.started\ndata: {"seq":5}\n\n',
    );
  });
});
