import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { DoctorReport } from '../../src/doctor/doctor-check.js';
import { createFleet, type Fleet } from '../../src/fleet/create-fleet.js';
import { captureLogger } from '../helpers/capture-logger.js';
import { freePort } from '../helpers/free-port.js';
import { createMemoryEventLog } from '../helpers/memory-event-log.js';
import { fakeIo } from '../unit/cli/fake-io.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();

const title = `the-loop doctor's fleet line against a real nats-server${
  unavailable ? ` (skipped: ${unavailable})` : ''
}`;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer;
  const fleets: Fleet[] = [];
  const roots: string[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.dispose();
  });
  afterEach(async () => {
    for (const fleet of fleets.splice(0)) await fleet.stop();
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  const tempRoot = async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'loop-doctor-fleet-'));
    roots.push(root);
    return root;
  };

  /** `the-loop doctor --json` on a config whose fleet block points at `url`. */
  const doctorFleet = async (url: string) => {
    const root = await tempRoot();
    const configFile = path.join(root, 'config.yaml');
    await writeFile(
      configFile,
      [
        `state: { root: ${JSON.stringify(path.join(root, 'state'))} }`,
        'defaults: { harness: shell, cwd: . }',
        'instance: { name: checker }',
        `fleet: { nats: ${JSON.stringify(url)} }`,
        '',
      ].join('\n'),
    );
    const io = fakeIo({ env: { PATH: process.env['PATH'] ?? '' }, cwd: root });
    const started = Date.now();
    const code = await main(['doctor', '--config', configFile, '--json'], io.io);
    const report = JSON.parse(io.stdout()) as DoctorReport;
    return {
      code,
      ms: Date.now() - started,
      fleet: report.checks.find((check) => check.id === 'fleet'),
    };
  };

  it('reachable, no instance yet: ok (0 instances), and creates no bucket', async () => {
    const result = await doctorFleet(nats.url);
    expect(result.fleet).toMatchObject({ status: 'ok', remedy: '' });
    expect(result.fleet?.message).toMatch(/^ok \(0 instances\).*no instance has joined yet/);
    // Doctor changes nothing: asked again, the bucket is still missing.
    expect((await doctorFleet(nats.url)).fleet?.message).toMatch(/no instance has joined yet/);
  });

  it('reachable with a live instance registered: ok (1 instance)', async () => {
    const fleet = createFleet({
      fleet: { nats: nats.url, retention: '1h' },
      name: 'alpha',
      id: 'id-alpha',
      version: '0.1.0',
      stateRoot: await tempRoot(),
      env: {},
      events: createMemoryEventLog(),
      logger: captureLogger().logger,
      localOwns: async () => true,
      sessions: async () => [],
    });
    fleets.push(fleet);
    await fleet.start();
    expect(fleet.state()).toMatchObject({ state: 'ok' });
    const result = await doctorFleet(nats.url);
    expect(result.fleet).toMatchObject({ status: 'ok', remedy: '' });
    expect(result.fleet?.message).toMatch(/^ok \(1 instance\): NATS at nats:\/\/127\.0\.0\.1:/);
  });

  it('unreachable (a closed port): fail down: <why>, the remedy, exit 1, within the timeout', async () => {
    const port = await freePort();
    const result = await doctorFleet(`nats://127.0.0.1:${port}`);
    expect(result.code).toBe(1);
    expect(result.fleet?.status).toBe('fail');
    expect(result.fleet?.message).toMatch(
      new RegExp(`^down: cannot reach NATS at nats://127\\.0\\.0\\.1:${port}: \\S`),
    );
    expect(result.fleet?.remedy).toMatch(/start nats-server.*fleet\.nats/);
    expect(result.ms).toBeLessThan(10_000);
  });

  it('a server that takes the connection and never answers: fail down after about 3 s', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = await doctorFleet(`nats://127.0.0.1:${port}`);
      expect(result.code).toBe(1);
      expect(result.fleet?.status).toBe('fail');
      expect(result.fleet?.message).toMatch(/^down: cannot reach NATS at .*: \S/);
      expect(result.ms).toBeGreaterThanOrEqual(2_500);
      expect(result.ms).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
