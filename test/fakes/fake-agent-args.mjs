// @ts-check

/**
 * Claude Code flags that take no value. Every other flag consumes the next argument, so the
 * flags the-loop passes through (`--permission-mode x`, `--model x`, `--append-system-prompt x`)
 * are skipped without the fake knowing each of them.
 */
const BOOLEAN_FLAGS = new Set([
  '-c',
  '--continue',
  '-p',
  '--print',
  '--verbose',
  '--debug',
  '--ide',
  '--fork-session',
  '--strict-mcp-config',
  '--dangerously-skip-permissions',
]);

/**
 * @typedef {{ sessionId?: string, resume?: string, settings?: string, mcpConfig?: string, prompt?: string }} AgentArgs
 * @typedef {{ ok: true, args: AgentArgs } | { ok: false, message: string }} ParsedArgs
 */

/**
 * Reads Claude Code's command line. Positional arguments form an initial prompt, as with
 * `claude "fix the build"`.
 *
 * @param {readonly string[]} argv
 * @returns {ParsedArgs}
 */
export function parseAgentArgs(argv) {
  /** @type {AgentArgs} */
  const args = {};
  /** @type {string[]} */
  const positional = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (BOOLEAN_FLAGS.has(name)) continue;
    const value = equals === -1 ? argv[i + 1] : arg.slice(equals + 1);
    if (equals === -1) i += 1;
    if (value === undefined) return { ok: false, message: `error: option '${name}' needs a value` };
    if (name === '--session-id') args.sessionId = value;
    else if (name === '--resume' || name === '-r') args.resume = value;
    else if (name === '--settings') args.settings = value;
    // Claude Code's takes several configs; the-loop passes one file, before another flag.
    else if (name === '--mcp-config') args.mcpConfig = value;
  }
  if (args.sessionId !== undefined && args.resume !== undefined) {
    return { ok: false, message: 'error: use either --session-id or --resume, not both' };
  }
  if (positional.length > 0) args.prompt = positional.join(' ');
  return { ok: true, args };
}
