import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import { parseConfigYaml } from './parse-config-yaml.js';
import { resolveConfig } from './resolve-config.js';
import type { Config } from './types.js';

export { resolveConfig } from './resolve-config.js';

export interface LoadConfigOptions {
  /** Supplies HOME for paths written as `~/…`. Default: process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** A relative config path is taken from here. Default: process.cwd(). */
  readonly cwd?: string;
}

/**
 * Reads, validates and resolves a config file (docs/design.md §3.3). An empty file is a valid config with
 * every default; anything wrong refuses the whole file with a ConfigError listing each issue.
 */
export async function loadConfig(file: string, options: LoadConfigOptions = {}): Promise<Config> {
  const env = options.env ?? process.env;
  const configPath = path.resolve(options.cwd ?? process.cwd(), file);
  const text = await readConfigText(configPath);
  return resolveConfig(parseConfigYaml(text, configPath), configPath, { home: env['HOME'] });
}

async function readConfigText(configPath: string): Promise<string> {
  try {
    return await readFile(configPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new ConfigError(configPath, [
        {
          path: '',
          code: 'file_missing',
          message:
            `there is no config file at ${configPath}: create it (an empty file gives every ` +
            `default; docs/configuration.md lists the keys and .the-loop/config.yaml in the-loop's ` +
            `repository is an example), or name another file with --config or THE_LOOP_CONFIG`,
        },
      ]);
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(configPath, [
      {
        path: '',
        code: 'file_unreadable',
        message: `cannot read ${configPath} (${reason}): make it a readable file`,
      },
    ]);
  }
}
