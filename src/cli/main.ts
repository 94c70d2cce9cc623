import { processIo, type CliIo } from './cli-io.js';
import { commandHandlers } from './command-handlers.js';
import { createCommandContext } from './command-context.js';
import { formatHelp } from './format-help.js';
import { formatUsage } from './format-usage.js';
import { parseCliArgs } from './parse-cli-args.js';
import { readVersion } from './read-version.js';
import { reportCliError } from './report-cli-error.js';

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
