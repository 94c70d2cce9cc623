import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect as connectTcp } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port.js';

/** Set by the runner when the tier cannot run; its value is the reason. */
export const FLEET_UNAVAILABLE_ENV = 'THE_LOOP_FLEET_UNAVAILABLE';

export function natsServerBinary(): string | undefined {
  for (const candidate of ['nats-server', '/usr/sbin/nats-server', '/usr/bin/nats-server']) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

/** Why the fleet tier cannot run here (tests skip on it, never pass), or undefined. */
export function fleetTierUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const told = env[FLEET_UNAVAILABLE_ENV];
  if (told) return told;
  return natsServerBinary()
    ? undefined
    : 'nats-server is not installed (apt-get install nats-server)';
}

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  /** Kills the server; `start()` brings it back on the same port and store. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its store. */
  dispose(): Promise<void>;
}

/** A real `nats-server -js` on 127.0.0.1, a free port and a temp store. */
export async function startNatsServer(): Promise<NatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('nats-server is not installed');
  const port = await freePort();
  const store = await mkdtemp(path.join(tmpdir(), 'loop-nats-'));
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store];
    child = spawn(binary, args, { stdio: 'ignore' });
    await untilListening(port, 10_000);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      await rm(store, { recursive: true, force: true });
    },
  };
}

async function untilListening(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
