/**
 * The one place a `tmux` command line shown to people is built (docs/design.md §17): with
 * `tmux.socket` set, the sessions live on `tmux -L <socket>`, and a remedy naming plain `tmux`
 * would send people to their default server, where the session is not.
 */

/** `tmux`, or `tmux -L <socket>` when the-loop runs its own server ("" = the default one). */
export function tmuxServerCommand(socket: string | undefined): string {
  return socket ? `tmux -L ${shellWord(socket)}` : 'tmux';
}

/**
 * How to look at a session: `tmux [-L <socket>] attach [-r] -t '=<target>'` (`=` matches the
 * name exactly; `-r` attaches read-only, for looking without typing).
 */
export function tmuxAttachCommand(
  target: string,
  socket: string | undefined,
  options: { readonly readOnly?: boolean } = {},
): string {
  const readOnly = options.readOnly ? ' -r' : '';
  return `${tmuxServerCommand(socket)} attach${readOnly} -t ${quoted(`=${target}`)}`;
}

/** `tmux [-L <socket>] kill-session -t '=<target>'`. */
export function tmuxKillCommand(target: string, socket: string | undefined): string {
  return `${tmuxServerCommand(socket)} kill-session -t ${quoted(`=${target}`)}`;
}

/** A word as a shell reads it: bare when only safe characters, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9._-]+$/.test(word) ? word : quoted(word);
}

function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
