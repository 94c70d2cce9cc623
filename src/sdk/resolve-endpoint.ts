import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createApiClient, type ApiEndpoint } from '../api/create-api-client.js';
import { isConfigError } from '../config/config-error.js';
import { lenientStateRoot } from '../config/lenient-state-root.js';
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
  try {
    const { state } = await loadConfig(file, { env, cwd });
    return { socketPath: statePaths(state.root).controlSocket };
  } catch (error) {
    // A file edited while serve runs (before `the-loop reload`) may no longer validate; it still
    // names its state root, and a serve answering there is the one meant (docs/design.md §22).
    if (!isConfigError(error)) throw error;
    const socketPath = await lenientControlSocket(file, env);
    if (await answers(socketPath)) return { socketPath };
    throw error;
  }
}

/** The control socket from the file's `state.root`, read leniently (never validating the file). */
export async function lenientControlSocket(
  configFile: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  // Unreadable or missing, the file says nothing: the default root beside it is tried.
  const text = await readFile(configFile, 'utf8').catch(() => '');
  return statePaths(lenientStateRoot(text, configFile, env['HOME'])).controlSocket;
}

async function answers(socketPath: string): Promise<boolean> {
  const client = createApiClient({ socketPath, timeoutMs: 2_000 });
  const health = await client.request('GET', '/api/v1/health').catch(() => undefined);
  return health?.status === 200;
}
