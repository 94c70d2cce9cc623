import { resolveConfig } from '../../src/config/resolve-config.js';
import type { Config } from '../../src/config/types.js';

/**
 * A real resolved Config with Slack on (channel C0OPS, U0DANA authorized), merged with `raw`, so
 * Slack tests never hand-build a Config the loader could not produce.
 */
export function slackConfig(raw: Record<string, unknown> = {}): Config {
  const { slack, ...rest } = raw;
  return resolveConfig(
    {
      slack: {
        enabled: true,
        channel: 'C0OPS',
        authorizedUsers: ['U0DANA'],
        ...(typeof slack === 'object' && slack !== null ? slack : {}),
      },
      ...rest,
    },
    '/home/dana/.the-loop/config.yaml',
  );
}
