import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, unwrap } from '../../../src/api/create-api-client.js';
import { createControlServer, type ControlServer } from '../../../src/api/create-control-server.js';
import type { Route } from '../../../src/api/route.js';
import { LoopError } from '../../../src/errors.js';
import { captureLogger, type CapturedLog } from '../../helpers/capture-logger.js';
import { rawRequest } from './raw-request.js';

const maxBodyBytes = 64 * 1024;
const handled: string[] = [];

const routes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/health',
    operationId: 'getHealth',
    auth: 'operator',
    handler: () => Promise.resolve({ status: 200, body: { ok: true } }),
  },
  {
    method: 'POST',
    path: '/api/v1/echo/{name}',
    operationId: 'echo',
    auth: 'operator',
    handler: (request) => {
      handled.push('echo');
      request.logger.info({ handler: 'echo' }, 'echo handled');
      const { params, body, sessionToken, requestId } = request;
      return Promise.resolve({ status: 201, body: { params, body, sessionToken, requestId } });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/post',
    operationId: 'postAsSession',
    auth: 'session',
    handler: (request) =>
      Promise.resolve({ status: 200, body: { sessionToken: request.sessionToken ?? null } }),
  },
  {
    method: 'GET',
    path: '/api/v1/taken',
    operationId: 'taken',
    auth: 'operator',
    handler: () => Promise.reject(new LoopError('name_taken', 'sup exists: pick another name')),
  },
  {
    method: 'GET',
    path: '/api/v1/boom',
    operationId: 'boom',
    auth: 'operator',
    handler: () => Promise.reject(new Error('secret internals at /home/ana/.ssh')),
  },
  {
    method: 'DELETE',
    path: '/api/v1/empty',
    operationId: 'empty',
    auth: 'operator',
    handler: () => Promise.resolve({ status: 204, body: null }),
  },
  {
    method: 'GET',
    path: '/api/v1/bad-status',
    operationId: 'badStatus',
    auth: 'operator',
    handler: () => Promise.resolve({ status: 42, body: {} }),
  },
];

let dir: string;
let socketPath: string;
let server: ControlServer;
let log: CapturedLog;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loop-api-'));
  socketPath = join(dir, 'control.sock');
  log = captureLogger();
  server = createControlServer({ routes, logger: log.logger, socketPath, maxBodyBytes });
  await server.start();
});

afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const json = { 'content-type': 'application/json' };

describe('control server on the unix socket', () => {
  it('creates the socket file mode 0600', async () => {
    const stats = await stat(socketPath);
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);
  });

  it('round-trips JSON through the client, with decoded path parameters', async () => {
    const client = createApiClient({ socketPath });
    const body = { text: 'héllo ✓\n'.repeat(1000), list: [1, null, true], nested: { a: 'b' } };
    const response = await client.request<Record<string, unknown>>(
      'POST',
      '/api/v1/echo/a%20b%2Fc?ignored=1',
      body,
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ params: { name: 'a b/c' }, body });
    expect(response.body.sessionToken).toBeUndefined();
    expect(unwrap(response)).toBe(response.body);
  });

  it('gives a session route the session token header, and an operator route nothing', async () => {
    const client = createApiClient({ socketPath });
    const token = { 'X-The-Loop-Session-Token': 'tok-123' };
    const post = await client.request('POST', '/api/v1/post', { text: 'hi' }, token);
    expect(post).toEqual({ status: 200, body: { sessionToken: 'tok-123' } });
    const echo = await client.request<Record<string, unknown>>('POST', '/api/v1/echo/x', {}, token);
    expect(echo.body.sessionToken).toBeUndefined();
  });

  it('passes no body as undefined', async () => {
    const response = await rawRequest({ socketPath, method: 'POST', path: '/api/v1/echo/x' });
    expect(response.status).toBe(201);
    expect(response.json).not.toHaveProperty('body');
  });

  const refusals: [string, Parameters<typeof rawRequest>[0], number, string, RegExp][] = [
    [
      'bad JSON',
      { method: 'POST', path: '/api/v1/echo/x', headers: json, body: '{"text": ' },
      400,
      'bad_request',
      /not valid JSON/,
    ],
    [
      'a non-JSON content type',
      {
        method: 'POST',
        path: '/api/v1/echo/x',
        headers: { 'content-type': 'text/plain' },
        body: 'hi',
      },
      400,
      'bad_request',
      /Content-Type: application\/json/,
    ],
    [
      'a body without a content type',
      { method: 'POST', path: '/api/v1/echo/x', body: '{}' },
      400,
      'bad_request',
      /must be JSON/,
    ],
    [
      'an unknown path',
      { method: 'GET', path: '/api/v1/nothing-here?token=abc' },
      404,
      'not_found',
      /no endpoint at \/api\/v1\/nothing-here: .*openapi/,
    ],
    [
      'a wrong method',
      { method: 'PUT', path: '/api/v1/health' },
      405,
      'method_not_allowed',
      /PUT is not allowed on \/api\/v1\/health: use GET/,
    ],
    [
      'a declared body over the limit',
      {
        method: 'POST',
        path: '/api/v1/echo/x',
        headers: json,
        body: `"${'x'.repeat(maxBodyBytes)}"`,
      },
      413,
      'payload_too_large',
      /over the 65536-byte limit/,
    ],
    [
      'a chunked body over the limit',
      {
        method: 'POST',
        path: '/api/v1/echo/x',
        headers: { ...json, 'transfer-encoding': 'chunked' },
        body: `"${'x'.repeat(4 * maxBodyBytes)}"`,
      },
      413,
      'payload_too_large',
      /send a smaller body/,
    ],
  ];
  it.each(refusals)(
    'answers %s with a JSON error',
    async (_label, request, status, code, message) => {
      const before = handled.length;
      const response = await rawRequest({ ...request, socketPath });
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json).toEqual({ error: expect.stringMatching(message), code });
      expect(handled.length).toBe(before);
    },
  );

  it('names the allowed methods on a 405', async () => {
    const response = await rawRequest({ socketPath, method: 'DELETE', path: '/api/v1/echo/x' });
    expect(response.headers.allow).toBe('POST');
  });

  it('closes the connection after a 413 instead of reading the rest', async () => {
    const response = await rawRequest({
      socketPath,
      method: 'POST',
      path: '/api/v1/echo/x',
      headers: { ...json, 'content-length': String(maxBodyBytes + 1) },
      body: `"${'x'.repeat(maxBodyBytes - 1)}"`,
    });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
  });

  it('accepts a body exactly at the limit', async () => {
    const text = 'y'.repeat(maxBodyBytes - 2);
    const response = await rawRequest({
      socketPath,
      method: 'POST',
      path: '/api/v1/echo/x',
      headers: json,
      body: JSON.stringify(text),
    });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ body: text });
  });

  it('keeps the status, code and message of a thrown LoopError', async () => {
    const client = createApiClient({ socketPath });
    const response = await client.request('GET', '/api/v1/taken');
    expect(response).toEqual({
      status: 409,
      body: { error: 'sup exists: pick another name', code: 'name_taken' },
    });
    expect(() => unwrap(response)).toThrow(
      expect.objectContaining({ code: 'name_taken', message: 'sup exists: pick another name' }),
    );
  });

  it('hides the text of any other failure and logs it with the request id', async () => {
    const response = await rawRequest({ socketPath, method: 'GET', path: '/api/v1/boom' });
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ error: expect.any(String), code: 'internal' });
    expect(response.text).not.toContain('secret internals');
    const requestId = response.headers['x-request-id'];
    expect(response.text).toContain(String(requestId));
    const failure = log.lines.find((line) => line.msg === 'api request failed');
    expect(failure).toMatchObject({ requestId, level: 50 });
    expect(JSON.stringify(failure)).toContain('secret internals');
  });

  it('answers a handler reply with an impossible status as a 500', async () => {
    const response = await rawRequest({ socketPath, method: 'GET', path: '/api/v1/bad-status' });
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ code: 'internal' });
  });

  it('sends no body with a 204', async () => {
    const response = await rawRequest({ socketPath, method: 'DELETE', path: '/api/v1/empty' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
  });

  it('logs one api.request line per request, tagged with its id, without body or tokens', async () => {
    const secretText = 'body-text-that-must-not-be-logged';
    const response = await rawRequest({
      socketPath,
      method: 'POST',
      path: '/api/v1/post?token=query-secret',
      headers: {
        ...json,
        'x-the-loop-session-token': 'session-secret',
        authorization: 'Bearer b-secret',
      },
      body: JSON.stringify({ text: secretText }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers['x-request-id'];
    const lines = log.lines.filter((line) => line.requestId === requestId);
    expect(lines.filter((line) => line.msg === 'api.request')).toEqual([
      expect.objectContaining({
        event: 'api.request',
        method: 'POST',
        path: '/api/v1/post',
        status: 200,
        ms: expect.any(Number),
      }),
    ]);
    for (const secret of [secretText, 'session-secret', 'b-secret', 'query-secret']) {
      expect(log.text()).not.toContain(secret);
    }
  });

  it('logs a client that hangs up mid-body as aborted, not as a failure', async () => {
    const before = handled.length;
    const socket = createConnection({ path: socketPath });
    socket.write(
      'POST /api/v1/echo/hangup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n',
    );
    // "100 Continue" proves the server has the request in hand; then hang up half-way.
    await once(socket, 'data');
    socket.end('{"text":');
    socket.destroy();
    const line = await log.waitFor(
      (each) => each.msg === 'api.request' && each.path === '/api/v1/echo/hangup',
    );
    expect(line).toMatchObject({ method: 'POST', aborted: true });
    expect(line).not.toHaveProperty('status');
    expect(handled.length).toBe(before);
    const verdict = await log.waitFor(
      (each) =>
        each.requestId === line.requestId &&
        (each.msg === 'api request failed' || each.msg === 'api request abandoned by the client'),
    );
    expect(verdict).toMatchObject({ msg: 'api request abandoned by the client', level: 20 });
  });

  it('hands the handler a logger already tagged with the request id', async () => {
    const response = await rawRequest({ socketPath, method: 'POST', path: '/api/v1/echo/x' });
    const requestId = (response.json as { requestId: string }).requestId;
    expect(response.headers['x-request-id']).toBe(requestId);
    expect(log.lines).toContainEqual(expect.objectContaining({ msg: 'echo handled', requestId }));
  });
});
