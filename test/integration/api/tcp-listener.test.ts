import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlServer, type ControlServer } from '../../../src/api/create-control-server.js';
import type { Route } from '../../../src/api/route.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { rawRequest } from './raw-request.js';

const token = 'a-long-random-api-token';
let calls = 0;

const routes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/health',
    operationId: 'getHealth',
    auth: 'operator',
    handler: () => {
      calls += 1;
      return Promise.resolve({ status: 200, body: { ok: true } });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/post',
    operationId: 'postAsSession',
    auth: 'session',
    handler: (request) => {
      calls += 1;
      return Promise.resolve({ status: 200, body: { sessionToken: request.sessionToken } });
    },
  },
];

let dir: string;
let socketPath: string;
let server: ControlServer;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loop-api-'));
  socketPath = join(dir, 'control.sock');
  server = createControlServer({
    routes,
    logger: silentLogger(),
    socketPath,
    tcp: { host: '127.0.0.1', port: 0, token },
  });
  expect(server.tcpAddress()).toBeUndefined();
  await server.start();
  const address = server.tcpAddress();
  if (address === undefined) throw new Error('the TCP listener did not start');
  expect(address.host).toBe('127.0.0.1');
  port = address.port;
});

afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the TCP listener', () => {
  const refused: [string, Record<string, string>][] = [
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['a token prefix', { authorization: `Bearer ${token.slice(0, -1)}` }],
    ['the token without the scheme', { authorization: token }],
    ['the token as Basic', { authorization: `Basic ${token}` }],
    ['only a session token', { 'x-the-loop-session-token': token }],
  ];
  it.each(refused)('answers 401 to %s without running the handler', async (_label, headers) => {
    const before = calls;
    const response = await rawRequest({
      host: '127.0.0.1',
      port,
      method: 'GET',
      path: '/api/v1/health',
      headers,
    });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json).toEqual({
      error: expect.stringContaining('THE_LOOP_API_TOKEN'),
      code: 'unauthorized',
    });
    expect(calls).toBe(before);
  });

  it('answers 401, not 404, for an unknown path without a token', async () => {
    const response = await rawRequest({
      host: '127.0.0.1',
      port,
      method: 'GET',
      path: '/api/v1/secret-things',
    });
    expect(response.status).toBe(401);
  });

  it('serves a request with the right token', async () => {
    const response = await rawRequest({
      host: '127.0.0.1',
      port,
      method: 'GET',
      path: '/api/v1/health',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ ok: true });
  });

  it('needs the bearer token on session routes too, then passes the session token on', async () => {
    const post = (headers: Record<string, string>) =>
      rawRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/post',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ text: 'hi' }),
      });
    expect((await post({ 'x-the-loop-session-token': 'st-1' })).status).toBe(401);
    const allowed = await post({
      'x-the-loop-session-token': 'st-1',
      authorization: `Bearer ${token}`,
    });
    expect(allowed.status).toBe(200);
    expect(allowed.json).toEqual({ sessionToken: 'st-1' });
  });

  it('needs no bearer token on the unix socket', async () => {
    const response = await rawRequest({ socketPath, method: 'GET', path: '/api/v1/health' });
    expect(response.status).toBe(200);
  });
});
