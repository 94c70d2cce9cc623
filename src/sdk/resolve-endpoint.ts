import path from 'node:path';
import type { ApiEndpoint } from '../api/create-api-client.js';
import { loadConfig } from '../config/load-config.js';
import { LoopError } from '../errors.js';
import { statePaths } from '../state/state-paths.js';

/** How `connect` finds serve (docs/sdk.md); the first that is given wins. */
export interface EndpointOptions {
  /** A config file: serve's control socket in its `state.root`. */
  readonly config?: string;
  /** The control socket itself. */
  readonly socket?: string;
  /** serve's TCP listener (`api.listen`), such as `http://127.0.0.1:8790`. */
  readonly url?: string;
  /** The API token for `url`; default `$THE_LOOP_API_TOKEN`. */
  readonly token?: string;
  /** Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** What relative paths are relative to; default `process.cwd()`. */
  readonly cwd?: string;
}

export const defaultConfigFile = '.the-loop/config.yaml';

/**
 * `socket`, else `url` (+ `token`), else `config`, else `$THE_LOOP_CONFIG`, else — inside a
 * session — `$THE_LOOP_SOCKET`, else `.the-loop/config.yaml`: the order every command uses
 * (docs/design.md §3.1, §20).
 */
export async function resolveEndpoint(options: EndpointOptions): Promise<ApiEndpoint> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.socket) return { socketPath: path.resolve(cwd, options.socket) };
  if (options.url) {
    const token = options.token ?? env['THE_LOOP_API_TOKEN'] ?? '';
    if (!token) {
      throw new LoopError(
        'bad_request',
        `connecting to ${options.url} needs the API token: pass { token } or set THE_LOOP_API_TOKEN`,
      );
    }
    return { url: options.url, token };
  }
  const configFile = options.config || env['THE_LOOP_CONFIG'];
  if (!configFile && env['THE_LOOP_SOCKET']) return { socketPath: env['THE_LOOP_SOCKET'] };
  const file = path.resolve(cwd, configFile || defaultConfigFile);
  const { state } = await loadConfig(file, { env, cwd });
  return { socketPath: statePaths(state.root).controlSocket };
}
