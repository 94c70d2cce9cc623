import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, unwrap } from '../../../src/api/create-api-client.js';
import { listenServer } from '../../../src/api/server-socket.js';
import { LoopError } from '../../../src/errors.js';
import { leaveStaleSocket } from './leave-stale-socket.js';

let dir: string;
let servers: Server[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loop-cli-'));
});

afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

async function thrownBy(promise: Promise<unknown>): Promise<LoopError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error instanceof LoopError) return error;
  throw new Error(`expected a LoopError, got ${String(error)}`);
}

/** A bare HTTP server on a socket, so the client is tested against what it may really meet. */
async function fakeServe(
  socketPath: string,
  answer: (request: {
    method: string;
    url: string;
    headers: Record<string, unknown>;
    body: string;
  }) => { status: number; contentType?: string; text: string } | undefined,
): Promise<void> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = answer({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (reply === undefined) return; // never answer: for the timeout test
      response.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
      response.end(reply.text);
    });
  });
  servers.push(server);
  await listenServer(server, { path: socketPath });
}

describe('createApiClient', () => {
  it('says serve is not running, and how to start it, when the socket is missing', async () => {
    const socketPath = join(dir, 'control.sock');
    const error = await thrownBy(createApiClient({ socketPath }).request('GET', '/api/v1/status'));
    expect(error.code).toBe('serve_not_running');
    expect(error.status).toBe(503);
    expect(error.message).toContain(socketPath);
    expect(error.message).toContain('start it with `the-loop serve` (or `npm start`)');
  });

  it('says the same when the socket is stale (connection refused)', async () => {
    const socketPath = join(dir, 'control.sock');
    await leaveStaleSocket(socketPath);
    const error = await thrownBy(createApiClient({ socketPath }).request('GET', '/api/v1/status'));
    expect(error.code).toBe('serve_not_running');
    expect(error.message).toContain('`the-loop serve`');
  });

  it('sends JSON with its content type and reads the JSON answer', async () => {
    const socketPath = join(dir, 'control.sock');
    const seen: unknown[] = [];
    await fakeServe(socketPath, (request) => {
      seen.push(request);
      return { status: 201, text: JSON.stringify({ got: JSON.parse(request.body) as unknown }) };
    });
    const client = createApiClient({ socketPath });
    const response = await client.request(
      'POST',
      '/api/v1/standing-sessions/sup/say',
      { text: 'hi ✓' },
      {
        'x-the-loop-session-token': 'tok',
      },
    );
    expect(response).toEqual({ status: 201, body: { got: { text: 'hi ✓' } } });
    expect(seen).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api/v1/standing-sessions/sup/say',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'x-the-loop-session-token': 'tok',
        }),
      }),
    ]);
  });

  it('sends no body and no content type when there is no body', async () => {
    const socketPath = join(dir, 'control.sock');
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    await fakeServe(socketPath, (request) => {
      seen.push(request);
      return { status: 204, text: '' };
    });
    const response = await createApiClient({ socketPath }).request(
      'DELETE',
      '/api/v1/standing-sessions/sup',
    );
    expect(response).toEqual({ status: 204, body: undefined });
    expect(seen[0]?.body).toBe('');
    expect(seen[0]?.headers['content-type']).toBeUndefined();
  });

  it('keeps a non-JSON error page as text, and unwrap shows it', async () => {
    const socketPath = join(dir, 'control.sock');
    await fakeServe(socketPath, () => ({
      status: 502,
      contentType: 'text/plain',
      text: 'upstream broke',
    }));
    const response = await createApiClient({ socketPath }).request('GET', '/api/v1/status');
    expect(response).toEqual({ status: 502, body: 'upstream broke' });
    expect(() => unwrap(response)).toThrow(/HTTP 502: upstream broke/);
  });

  it('gives up after timeoutMs, naming the socket', async () => {
    const socketPath = join(dir, 'control.sock');
    await fakeServe(socketPath, () => undefined);
    const error = await thrownBy(
      createApiClient({ socketPath, timeoutMs: 100 }).request('GET', '/api/v1/status'),
    );
    expect(error.code).toBe('internal');
    expect(error.message).toContain('did not answer within 100 ms');
    expect(error.message).toContain(socketPath);
  });
});
