import type { SurfaceOutcome } from '../delivery/surface-outcome.js';
import type { Config } from '../config/types.js';
import type { createGithubSurface, GithubSurface } from './create-github-surface.js';
import { decideGithub } from './decide-github.js';

type GithubSurfaceOptions = Omit<Parameters<typeof createGithubSurface>[0], 'plan'>;

/**
 * The GitHub surface when a token turns it on (docs/design.md §7), and what its status rows say: the
 * plan's notes (webhook off, poller off) are parts of it that are off.
 */
export async function loadGithubSurface(
  options: GithubSurfaceOptions & { readonly config: Config; readonly env: NodeJS.ProcessEnv },
): Promise<{ surface?: GithubSurface; outcome: SurfaceOutcome }> {
  const { env, ...surfaceOptions } = options;
  const decision = decideGithub(options.config, env);
  if (!decision.on) return { outcome: decision };
  const { createGithubSurface: create } = await import('./create-github-surface.js');
  return {
    surface: create({ ...surfaceOptions, plan: decision.plan }),
    outcome: { on: true, detail: 'token set', notes: decision.plan.notes },
  };
}
