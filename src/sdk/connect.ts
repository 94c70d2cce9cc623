import { createApiClient } from '../api/create-api-client.js';
import { createLoop, type Loop } from './create-loop.js';
import { resolveEndpoint, type EndpointOptions } from './resolve-endpoint.js';

export interface ConnectOptions extends EndpointOptions {
  /**
   * Speak as this session (`say` framed `agent:<sender>`, `post`). Default
   * `$THE_LOOP_SESSION_TOKEN`, which the-loop sets inside every session it starts.
   */
  readonly sessionToken?: string;
  /** How long one request may take; default 60 s. */
  readonly timeoutMs?: number;
}

/**
 * The SDK's entry (docs/design.md §20, docs/sdk.md): finds serve as every command does and
 * returns the typed client. Nothing is sent yet: the first call says whether serve is there.
 */
export async function connect(options: ConnectOptions = {}): Promise<Loop> {
  const endpoint = await resolveEndpoint(options);
  const env = options.env ?? process.env;
  const client = createApiClient({
    ...endpoint,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return createLoop(client, options.sessionToken ?? (env['THE_LOOP_SESSION_TOKEN'] || undefined));
}
