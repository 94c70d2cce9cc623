import { isConfigError } from '../config/config-error.js';
import { LoopError } from '../errors.js';
import type { TextSink } from './cli-io.js';

/**
 * Prints what went wrong and returns the exit code (docs/design.md §3.1): 2 for a config this process
 * could not use, 1 for everything `serve` refused or could not do. Answers from the server carry
 * `details.status`, so a refusal that happens to be about config is still exit 1.
 */
export function reportCliError(error: unknown, stderr: TextSink): number {
  if (isConfigError(error)) {
    const count = error.issues.length === 1 ? '1 problem' : `${error.issues.length} problems`;
    stderr.write(`error: config ${error.configPath} is refused (${count}; nothing was applied):\n`);
    for (const issue of error.issues) {
      stderr.write(`  ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}\n`);
    }
    return 2;
  }
  if (error instanceof LoopError) {
    // Its message already says how to start serve; "error:" would only add noise.
    if (error.code === 'serve_not_running') stderr.write(`${error.message}\n`);
    else stderr.write(`error: ${error.message}\n`);
    const local = error.details['status'] === undefined;
    return local && error.code === 'config_invalid' ? 2 : 1;
  }
  stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
