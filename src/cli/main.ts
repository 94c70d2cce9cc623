import { processIo, type CliIo, readVersion, type TextSink } from './cli-io.js';
import { commandHandlers } from './command-handlers.js';
import { createCommandContext } from './command-context.js';
import { formatHelp, formatUsage } from './help.js';
import { parseCliArgs } from './parse-cli-args.js';
import { isConfigError } from '../config/config-error.js';
import { LoopError } from '../errors.js';

export type { CliIo } from './cli-io.js';

/**
 * The `the-loop` command (docs/design.md §3.1). Returns the exit code: 0 ok, 1 refused, not found or not
 * ok, 2 usage or config error. Everything it touches comes in through `io`.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${await readVersion()}\n`);
    return 0;
  }
  const parsed = parseCliArgs(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(`${formatHelp(parsed.topic)}\n`);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    // Claude Code treats a hook's exit 2 as "block this": a broken hook line must not do that.
    if (parsed.topic === 'hook') {
      io.stderr.write(`the-loop hook: ${parsed.message}\n`);
      return 0;
    }
    io.stderr.write(`error: ${parsed.message}\n${formatUsage(parsed.topic)}\n`);
    return 2;
  }
  const context = createCommandContext(io, parsed.command, parsed.args, parsed.flags);
  try {
    return await commandHandlers[parsed.command](context);
  } catch (error) {
    return reportCliError(error, io.stderr);
  }
}

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
