import { describe, expect, it } from 'vitest';
import { encodeReply } from '../../../src/api/encode-reply.js';

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
