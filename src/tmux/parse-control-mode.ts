/**
 * What a tmux control-mode client prints, one line at a time: the output of each command between
 * `%begin` and `%end` (or `%error` when it failed), and notifications (`%session-changed`, `%exit`,
 * …) outside those guards. Only blocks flagged as coming from this client's own commands count;
 * the server's own blocks (the attach itself) and the other notifications are dropped; the client
 * leaving (`%exit`) shows as its process ending.
 */
export type ControlModeEvent =
  | { readonly type: 'block'; readonly ok: boolean; readonly lines: readonly string[] }
  /** The client was attached to another session (its own was killed, or someone switched it). */
  | { readonly type: 'session-changed'; readonly name: string };

export interface ControlModeParser {
  /** Takes one line (without its newline) and returns the event it completes, if any. */
  line(text: string): ControlModeEvent | undefined;
}

const guard = /^%(begin|end|error) \d+ (\d+) (\d+)$/;

export function createControlModeParser(): ControlModeParser {
  let open: { number: string; fromClient: boolean; lines: string[] } | undefined;
  return {
    line(text) {
      const match = guard.exec(text);
      if (open) {
        // Inside a block every line is output, unless it is the guard that closes this block.
        if (!match || match[1] === 'begin' || match[2] !== open.number) {
          open.lines.push(text);
          return undefined;
        }
        const block = open;
        open = undefined;
        if (!block.fromClient) return undefined;
        return { type: 'block', ok: match[1] === 'end', lines: block.lines };
      }
      if (match?.[1] === 'begin') {
        // Bit 0 of the flags marks a command this client sent.
        open = { number: match[2] ?? '', fromClient: (Number(match[3]) & 1) === 1, lines: [] };
        return undefined;
      }
      const changed = /^%session-changed \$\d+ (.*)$/.exec(text);
      if (changed) return { type: 'session-changed', name: changed[1] ?? '' };
      return undefined;
    },
  };
}
