import { resolveConfig } from '../../src/config/resolve-config.js';
import type { Config } from '../../src/config/types.js';

/**
 * A real resolved Config (schema defaults applied) from the few keys a GitHub test cares about,
 * so tests never hand-build a Config that the loader could not produce.
 */
export function githubConfig(raw: Record<string, unknown> = {}): Config {
  return resolveConfig(
    {
      github: { repos: [{ repo: 'octo/repo', path: 'repo' }], authorizedUsers: ['octocat'] },
      ...raw,
    },
    '/home/dana/.the-loop/config.yaml',
  );
}
