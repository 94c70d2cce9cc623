import { describe, expect, it } from 'vitest';
import { unwrap } from '../../../src/api/create-api-client.js';
import { LoopError } from '../../../src/errors.js';

function thrownBy(action: () => unknown): LoopError {
  try {
    action();
  } catch (error) {
    if (error instanceof LoopError) return error;
    throw error;
  }
  throw new Error('expected a LoopError');
}

describe('unwrap', () => {
  it.each([200, 201, 204, 299])('returns the body of a %i', (status) => {
    expect(unwrap({ status, body: { ok: true } })).toEqual({ ok: true });
  });

  const failures: [number, unknown, string, RegExp][] = [
    [
      409,
      { error: 'sup exists: pick another name', code: 'name_taken' },
      'name_taken',
      /^sup exists/,
    ],
    [404, { error: 'no such session', code: 'session_unknown' }, 'session_unknown', /^no such/],
    [418, { error: 'from a newer serve', code: 'teapot_mode' }, 'internal', /^from a newer serve$/],
    [500, { code: 'internal' }, 'internal', /answered HTTP 500/],
    [502, 'Bad Gateway', 'internal', /answered HTTP 502: Bad Gateway/],
    [503, undefined, 'internal', /answered HTTP 503$/],
    [400, ['not', 'an', 'object'], 'internal', /answered HTTP 400/],
    [301, { error: 'moved', code: 'not_found' }, 'not_found', /^moved$/],
  ];
  it.each(failures)('turns a %i into a LoopError', (status, body, code, message) => {
    const error = thrownBy(() => unwrap({ status, body }));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.details).toEqual({ status });
  });
});
