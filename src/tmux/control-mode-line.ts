/**
 * One tmux command line for a control-mode client, from the argv a spawned tmux would get. Each
 * argument is single-quoted (tmux takes everything inside single quotes literally: no `$`, `~`,
 * `#`, `{` or `;` meaning), a quote inside one is closed, escaped and reopened, and a bare `;`
 * argument stays the command separator it is in argv form. Arguments holding a line break cannot
 * be written on one line: the caller sends those through a spawned tmux instead.
 */
export function controlModeLine(args: readonly string[]): string | undefined {
  if (args.some((arg) => /[\r\n]/.test(arg))) return undefined;
  return args.map((arg) => (arg === ';' ? ';' : `'${arg.replaceAll("'", "'\\''")}'`)).join(' ');
}
