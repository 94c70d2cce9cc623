// Is serve listening on the control socket, and is it the same version as this CLI.
import { stat } from 'node:fs/promises';
import { createApiClient } from '../api/create-api-client.js';
import { errnoCode } from '../errors.js';
import { ok, warn, type DoctorCheck } from './doctor-check.js';

/** Asks `GET /api/v1/health` on the control socket; a socket nobody answers on is `silent`. */
export async function probeControlSocket(socketPath: string): Promise<ControlSocketFacts> {
  try {
    await stat(socketPath);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { socketPath, state: 'absent' };
    return { socketPath, state: 'silent' };
  }
  try {
    const client = createApiClient({ socketPath, timeoutMs: 3_000 });
    const answer = await client.request<{ version?: unknown }>('GET', '/api/v1/health');
    const version = answer.body.version;
    if (answer.status !== 200) return { socketPath, state: 'silent' };
    return { socketPath, state: 'answering', version: typeof version === 'string' ? version : '?' };
  } catch {
    // Refused or timed out: the facts say so; there is no detail a person could act on.
    return { socketPath, state: 'silent' };
  }
}

export type ControlSocketFacts =
  | { readonly socketPath: string; readonly state: 'answering'; readonly version: string }
  | { readonly socketPath: string; readonly state: 'absent' | 'silent' };

/** Whether `serve` answers on the control socket. Not running is normal before the first start. */
export function checkControlSocket(facts: ControlSocketFacts, cliVersion: string): DoctorCheck {
  if (facts.state === 'absent') {
    return warn(
      'control-socket',
      `serve is not running (no ${facts.socketPath})`,
      'start it with `the-loop serve` (or `npm start` in a clone)',
    );
  }
  if (facts.state !== 'answering') {
    return warn(
      'control-socket',
      `${facts.socketPath} is there but nothing answers on it (serve stopped without cleaning up?)`,
      'start `the-loop serve`: it replaces a socket nobody answers on',
    );
  }
  if (facts.version !== cliVersion) {
    return warn(
      'control-socket',
      `serve ${facts.version} is running, but this the-loop is ${cliVersion}`,
      'restart serve so both run the same version',
    );
  }
  return ok('control-socket', `serve ${facts.version} answers on ${facts.socketPath}`);
}
