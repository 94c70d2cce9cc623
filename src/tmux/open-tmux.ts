import type { Logger } from '../log/create-logger.js';
import { createControlModeRunner, type ClosableTmuxRunner } from './create-control-mode-runner.js';
import { createTmuxDriver } from './create-tmux-driver.js';
import type { TmuxDriver } from './tmux-driver.js';
import { tmuxEnvironment } from './tmux-environment.js';
import { createExecaTmuxRunner } from './tmux-runner.js';

/**
 * serve's way to tmux: one control-mode client per instance (its session named after the owner,
 * so two instances on one server never share it), falling back to a process per command.
 */
export function openTmux(options: {
  readonly socket: string;
  readonly env: NodeJS.ProcessEnv;
  readonly owner: string;
  readonly scratchDir: string;
  readonly logger: Logger;
}): { runner: ClosableTmuxRunner; driver: TmuxDriver } {
  const { owner, logger } = options;
  const tmuxOptions = { socket: options.socket, env: tmuxEnvironment(options.env) };
  const runner = createControlModeRunner({
    ...tmuxOptions,
    sessionName: `loop-control-${owner.slice(0, 12)}`,
    owner,
    scratchDir: options.scratchDir,
    fallback: createExecaTmuxRunner(tmuxOptions),
    logger,
  });
  return { runner, driver: createTmuxDriver({ runner, logger, socket: options.socket }) };
}
