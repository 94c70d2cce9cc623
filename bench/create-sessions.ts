import type { ApiClient } from '../src/api/create-api-client.js';
import { mapLimit } from '../src/state/map-limit.js';

/**
 * Creates (and starts) standing sessions through the control plane, `concurrency` at a time, as an
 * operator's script would; any answer but 201 stops the scenario with serve's own message.
 */
export async function createSessions(
  api: ApiClient,
  names: readonly string[],
  body: Readonly<Record<string, unknown>>,
  concurrency: number,
): Promise<void> {
  await mapLimit(names, concurrency, async (name) => {
    const created = await api.request('POST', '/api/v1/standing-sessions', { name, ...body });
    if (created.status !== 201) {
      throw new Error(
        `bench: creating ${name} answered ${created.status}: ${JSON.stringify(created.body)}`,
      );
    }
  });
}
