import type { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/types.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

export type ConfigFacts =
  { readonly loaded: Config } | { readonly refused: Pick<ConfigError, 'configPath' | 'issues'> };

/** The config file first: without one, the checks that read it are skipped. */
export function checkConfig(facts: ConfigFacts): DoctorCheck {
  if ('refused' in facts) {
    const { configPath, issues } = facts.refused;
    if (issues.some((issue) => issue.code === 'file_missing')) {
      return fail(
        'config',
        `there is no config at ${configPath}`,
        'run `the-loop init` in your repository, or name a config with --config or THE_LOOP_CONFIG',
      );
    }
    const listed = issues.map((issue) => (issue.path ? `${issue.path}: ` : '') + issue.message);
    return fail(
      'config',
      `${configPath} is refused: ${listed.join('; ')}`,
      'fix the keys named (`the-loop config check` lists them)',
    );
  }
  const { configPath, instanceWarnings } = facts.loaded;
  if (instanceWarnings.length > 0) {
    return warn(
      'config',
      `${configPath}: the instance is locked because ${instanceWarnings.join('; ')}`,
      'fix the instance block',
    );
  }
  return ok('config', `${configPath} is valid`);
}
