import { LoopError } from '../errors.js';
import { assertTargetName, paneTarget } from '../tmux/exact-target.js';
import type { TmuxRunner } from '../tmux/tmux-runner.js';

/** A pane's visible text with its colour escapes (`capture-pane -e`), for the dashboard. */
export function captureStyled(runner: TmuxRunner): (tmuxName: string) => Promise<string> {
  return async (tmuxName) => {
    assertTargetName(tmuxName);
    const result = await runner.run(['capture-pane', '-p', '-e', '-t', paneTarget(tmuxName)]);
    if (result.exitCode !== 0) {
      throw new LoopError(
        'session_not_running',
        `${tmuxName} is not running: start it to see its terminal`,
      );
    }
    return result.stdout;
  };
}
