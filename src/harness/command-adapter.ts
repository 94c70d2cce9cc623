import type { HarnessAdapter, LaunchContext } from './harness-adapter.js';

/** With no ready pattern, a command counts as ready once its pane has had this long to draw. */
export const defaultSettleMs = 300;

/** Any program: its configured argv, ready by screen pattern or settle time, no conversation. */
export function createCommandAdapter(): HarnessAdapter {
  return {
    kind: 'command',
    async plan(context: LaunchContext) {
      const pattern = context.harness.readyPattern;
      return {
        argv: [context.harness.command, ...context.harness.args, ...context.args],
        resuming: false,
        readiness: {
          kind: 'screen',
          ...(pattern ? { pattern: new RegExp(pattern, 'm') } : {}),
          settleMs: defaultSettleMs,
        },
        confirms: false,
      };
    },
  };
}
