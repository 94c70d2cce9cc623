import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { freePort } from '../helpers/free-port.js';

const token = 'tcp-limits-token-0123456789abcdef';

/** A TCP connection to the API that records when the server closed it. */
function openConnection(port: number): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('close', () => {
      closed = true;
    });
    socket.on('data', () => undefined);
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed: () => closed }));
    socket.once('error', reject);
  });
}

describe('unauthenticated clients of the TCP API (api.listen)', () => {
  let fixture: ServeFixture | undefined;
  const sockets: Socket[] = [];

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await fixture?.dispose();
    fixture = undefined;
  });

  it('cannot hold a connection open without sending its headers, nor open connections without end', async () => {
    const port = await freePort();
    fixture = await createServeFixture(() => ({ api: { listen: `127.0.0.1:${port}` } }), {
      env: { THE_LOOP_API_TOKEN: token },
    });
    const serve = fixture;
    await serve.start();

    // Headers begun and never finished: cut within the 10 s header timeout (plus the check's
    // one-second tick), not the 60 s Node allows by default.
    const slow = await openConnection(port);
    sockets.push(slow.socket);
    const began = Date.now();
    slow.socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n');
    await eventually(slow.closed, { timeoutMs: 15_000, what: 'the half-sent request to be cut' });
    expect(Date.now() - began).toBeLessThan(12_500);

    // 64 connections at most: the ones past the cap are closed at once.
    const many = await Promise.all(Array.from({ length: 80 }, () => openConnection(port)));
    sockets.push(...many.map((entry) => entry.socket));
    await eventually(() => many.filter((entry) => entry.closed()).length >= 16, {
      timeoutMs: 5_000,
      what: 'the connections past the cap to be closed',
    });
    expect(many.filter((entry) => entry.closed()).length).toBe(16);
    for (const entry of many) entry.socket.destroy();

    // The API still answers a client with the token.
    await eventually(
      async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/api/v1/health`, {
          headers: { authorization: `Bearer ${token}` },
        }).catch(() => undefined);
        return answer?.status === 200;
      },
      { timeoutMs: 10_000, what: 'the API to answer again' },
    );
  }, 60_000);
});
