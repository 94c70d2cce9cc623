import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody, type BodyRead } from '../../../src/http/read-body.js';

/** The parts of a request readBody uses: its headers and its body stream. */
function fakeRequest(headers: Record<string, string> = {}) {
  const stream = new PassThrough();
  return { stream, request: Object.assign(stream, { headers }) as unknown as IncomingMessage };
}

const limits = { maxBytes: 10, drainBytes: 20, drainMs: 60_000 };

/** Resolves with the read, or with 'pending' if it has not settled after the stream had a turn. */
async function settled(read: Promise<BodyRead>): Promise<BodyRead | 'pending'> {
  return Promise.race([
    read,
    new Promise<'pending'>((resolve) => setTimeout(resolve, 20, 'pending')),
  ]);
}

describe('readBody', () => {
  it('returns a body within the limit whole', async () => {
    const { stream, request } = fakeRequest();
    const read = readBody(request, limits);
    stream.end('0123456789');
    expect(await read).toEqual({ kind: 'complete', bytes: Buffer.from('0123456789') });
  });

  it('refuses a declared length over the limit before reading anything', async () => {
    const { request } = fakeRequest({ 'content-length': '11' });
    expect(await readBody(request, limits)).toEqual({ kind: 'too_large' });
  });

  it('reads the rest of a moderately oversized body before refusing it', async () => {
    const { stream, request } = fakeRequest();
    const read = readBody(request, limits);
    stream.write('0123456789ab');
    expect(await settled(read)).toBe('pending');
    stream.end('cdef');
    expect(await read).toEqual({ kind: 'too_large' });
  });

  it('stops reading once the drain allowance is spent', async () => {
    const { stream, request } = fakeRequest();
    const read = readBody(request, limits);
    stream.write('x'.repeat(31));
    expect(await settled(read)).toEqual({ kind: 'too_large' });
    expect(stream.isPaused()).toBe(true);
  });

  it('stops waiting for a sender that stalls while draining', async () => {
    const { stream, request } = fakeRequest();
    const read = readBody(request, { ...limits, drainMs: 30 });
    stream.write('0123456789ab');
    expect(await read).toEqual({ kind: 'too_large' });
  });

  it('fails when the client hangs up mid-body', async () => {
    const { stream, request } = fakeRequest();
    const read = readBody(request, limits);
    stream.write('01234');
    stream.destroy();
    await expect(read).rejects.toThrow(/closed the connection/);
  });
});
