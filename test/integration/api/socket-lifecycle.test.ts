import { once } from 'node:events';
import { access, lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, unwrap } from '../../../src/api/create-api-client.js';
import { createControlServer, type ControlServer } from '../../../src/api/create-control-server.js';
import type { Route } from '../../../src/api/route.js';
import { LoopError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { leaveStaleSocket } from './leave-stale-socket.js';
import { rawRequest } from './raw-request.js';

function healthRoutes(instance: string): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/health',
      operationId: 'getHealth',
      auth: 'operator',
      handler: () => Promise.resolve({ status: 200, body: { ok: true, instance } }),
    },
  ];
}

let dir: string;
let socketPath: string;
const started: ControlServer[] = [];

function server(instance: string, extra: Partial<Parameters<typeof createControlServer>[0]> = {}) {
  const created = createControlServer({
    routes: healthRoutes(instance),
    logger: silentLogger(),
    socketPath,
    ...extra,
  });
  started.push(created);
  return created;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function thrownBy(promise: Promise<unknown>): Promise<LoopError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error instanceof LoopError) return error;
  throw new Error(`expected a LoopError, got ${String(error)}`);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loop-api-'));
  socketPath = join(dir, 'control.sock');
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((each) => each.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('the control socket file', () => {
  it('replaces a stale socket left by a crashed serve', async () => {
    await leaveStaleSocket(socketPath);
    expect((await lstat(socketPath)).isSocket()).toBe(true);
    const fresh = server('fresh');
    await fresh.start();
    const client = createApiClient({ socketPath });
    expect(unwrap(await client.request('GET', '/api/v1/health'))).toEqual({
      ok: true,
      instance: 'fresh',
    });
  });

  it('refuses to start beside a live serve, and leaves that one working', async () => {
    await server('first').start();
    const error = await thrownBy(server('second').start());
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(socketPath);
    expect(error.message).toContain('another `the-loop serve` is running');
    const client = createApiClient({ socketPath });
    expect(unwrap(await client.request('GET', '/api/v1/health'))).toEqual({
      ok: true,
      instance: 'first',
    });
  });

  it('never deletes a file that is not a socket', async () => {
    await writeFile(socketPath, 'precious');
    const error = await thrownBy(server('x').start());
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('is not a socket');
    expect(await readFile(socketPath, 'utf8')).toBe('precious');
  });

  it('refuses a socket path longer than a unix socket allows', async () => {
    socketPath = join(dir, `${'s'.repeat(120)}.sock`);
    const error = await thrownBy(server('x').start());
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('state.root');
  });

  it('is removed by stop(), after which the client says serve is not running', async () => {
    const running = server('x');
    await running.start();
    await running.stop();
    expect(await exists(socketPath)).toBe(false);
    const error = await thrownBy(createApiClient({ socketPath }).request('GET', '/api/v1/health'));
    expect(error.code).toBe('serve_not_running');
  });

  it('stop() ends idle keep-alive connections instead of waiting for them', async () => {
    // A grace longer than the test timeout: stop() can only finish by ending the idle connection.
    const running = server('x', { stopGraceMs: 120_000 });
    await running.start();
    const agent = new Agent({ keepAlive: true });
    const response = await rawRequest({ socketPath, method: 'GET', path: '/api/v1/health', agent });
    expect(response.status).toBe(200);
    const [socket] = Object.values(agent.freeSockets).flat();
    if (socket === undefined) throw new Error('the agent kept no idle connection');
    const closed = once(socket, 'close');
    await running.stop();
    await closed;
    agent.destroy();
  });

  it('can be started again by a new server after a clean stop', async () => {
    const first = server('first');
    await first.start();
    await first.stop();
    await server('second').start();
    const client = createApiClient({ socketPath });
    expect(unwrap(await client.request('GET', '/api/v1/health'))).toEqual({
      ok: true,
      instance: 'second',
    });
  });

  it('a server starts once', async () => {
    const running = server('x');
    await running.start();
    expect((await thrownBy(running.start())).code).toBe('internal');
  });

  it('stop() before start() does nothing', async () => {
    await server('x').stop();
    expect(await exists(socketPath)).toBe(false);
  });
});

describe('the TCP listener settings', () => {
  it('refuses to start with an empty token, naming THE_LOOP_API_TOKEN, and creates no socket', async () => {
    const error = await thrownBy(
      server('x', { tcp: { host: '127.0.0.1', port: 0, token: '' } }).start(),
    );
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('THE_LOOP_API_TOKEN');
    expect(await exists(socketPath)).toBe(false);
  });

  it('gives back the unix socket when the TCP port is taken', async () => {
    const holder = server('holder', { tcp: { host: '127.0.0.1', port: 0, token: 't' } });
    await holder.start();
    const port = holder.tcpAddress()?.port ?? 0;
    socketPath = join(dir, 'other.sock');
    const error = await thrownBy(
      server('x', { tcp: { host: '127.0.0.1', port, token: 't' } }).start(),
    );
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('api.listen');
    expect(await exists(socketPath)).toBe(false);
  });
});
