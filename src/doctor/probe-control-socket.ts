import { stat } from 'node:fs/promises';
import { createApiClient } from '../api/create-api-client.js';
import { errnoCode } from '../errors.js';
import type { ControlSocketFacts } from './check-control-socket.js';

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
