import type { SurfaceOutcome } from '../delivery/surface-outcome.js';
import type { Config } from '../config/types.js';
import type { createSlackSurface, SlackSurface } from './create-slack-surface.js';
import { decideSlack } from './decide-slack.js';

type SlackSurfaceOptions = Omit<Parameters<typeof createSlackSurface>[0], 'credentials'>;

/**
 * The Slack surface when the config and the environment turn it on (docs/design.md §3.2), and what its
 * status row says. Bolt is loaded only then: it costs memory an instance without Slack keeps.
 */
export async function loadSlackSurface(
  options: SlackSurfaceOptions & { readonly config: Config; readonly env: NodeJS.ProcessEnv },
): Promise<{ surface?: SlackSurface; outcome: SurfaceOutcome }> {
  const { env, ...surfaceOptions } = options;
  const decision = decideSlack(options.config, env);
  if (!decision.on) return { outcome: decision };
  const { createSlackSurface: create } = await import('./create-slack-surface.js');
  return {
    surface: create({ ...surfaceOptions, credentials: decision.credentials }),
    outcome: { on: true, detail: `${options.config.slack.mode} mode`, notes: [] },
  };
}
