import { describe, expect, it } from 'vitest';
import { encodeReply, toErrorResponse } from '../../../src/api/reply.js';
import { LoopError } from '../../../src/errors.js';

describe('encodeReply', () => {
  it('writes JSON with its length, the request id and no caching', () => {
    expect(encodeReply({ status: 201, body: { name: 'café' } }, 'r-1')).toEqual({
      status: 201,
      headers: {
        'x-request-id': 'r-1',
        'cache-control': 'no-store',
        'content-type': 'application/json; charset=utf-8',
        'content-length': '16', // é is two bytes in UTF-8
      },
      payload: '{"name":"café"}',
    });
  });

  it('sends null for an undefined body', () => {
    expect(encodeReply({ status: 200, body: undefined }, 'r').payload).toBe('null');
  });

  it.each([204, 304])('sends no body with a %i', (status) => {
    const encoded = encodeReply({ status, body: { ignored: true } }, 'r');
    expect(encoded.payload).toBeUndefined();
    expect(encoded.headers).not.toHaveProperty('content-type');
  });

  it('adds extra headers and Connection: close when asked', () => {
    const encoded = encodeReply(
      { status: 405, body: {}, headers: { allow: 'GET' }, close: true },
      'r',
    );
    expect(encoded.headers).toMatchObject({ allow: 'GET', connection: 'close' });
  });

  it.each([0, 42, 100, 199, 600, 200.5, Number.NaN])('refuses status %s', (status) => {
    expect(() => encodeReply({ status, body: {} }, 'r')).toThrow(/HTTP status/);
  });

  it('refuses a body JSON cannot hold', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => encodeReply({ status: 200, body: circular }, 'r')).toThrow(TypeError);
    expect(() => encodeReply({ status: 200, body: { n: 1n } }, 'r')).toThrow(TypeError);
  });
});

describe('toErrorResponse', () => {
  const loopErrors: [LoopError, number][] = [
    [new LoopError('name_taken', 'sup exists: pick another name'), 409],
    [new LoopError('session_not_running', 'sup is stopped: `the-loop standing start sup`'), 404],
    [new LoopError('bad_request', 'text is required'), 400],
    [new LoopError('unauthorized', 'wrong token'), 401],
    [new LoopError('payload_too_large', 'too big'), 413],
    [new LoopError('tmux_unavailable', 'install tmux'), 503],
    [new LoopError('internal', 'state root unreadable: fix its permissions'), 500],
  ];
  it.each(loopErrors)('keeps the status, code and message of %s', (error, status) => {
    expect(toErrorResponse(error, 'req-1')).toEqual({
      status,
      body: { error: error.message, code: error.code },
      expected: true,
    });
  });

  const others: unknown[] = [
    new Error('ENOENT: /home/ana/.secret/path'),
    new TypeError('x is undefined'),
    'a string',
    undefined,
    { code: 'name_taken', message: 'looks like a LoopError but is not' },
  ];
  it.each(others)('hides the text of %j behind a generic 500 naming the request', (thrown) => {
    const response = toErrorResponse(thrown, 'req-42');
    expect(response).toMatchObject({ status: 500, expected: false, body: { code: 'internal' } });
    expect(response.body.error).toContain('req-42');
    expect(response.body.error).not.toMatch(/secret|undefined|looks like/);
  });
});
