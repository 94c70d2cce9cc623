import type { SessionInfo } from './tmux-driver.js';

/** One line per session: name, dead flag, pane pid, dead status, owner tag (last: it may hold tabs). */
export const sessionFormat =
  '#{session_name}\t#{pane_dead}\t#{pane_pid}\t#{pane_dead_status}\t#{@the-loop-owner}';

export function parseSessionLine(line: string): SessionInfo | undefined {
  const fields = line.split('\t');
  if (fields.length < 5) return undefined;
  const [name, dead, pid, deadStatus] = fields;
  if (!name) return undefined;
  const owner = fields.slice(4).join('\t');
  const panePid = Number(pid);
  const status = Number(deadStatus);
  return {
    name,
    state: dead === '1' ? 'dead' : 'live',
    owner,
    ...(Number.isInteger(panePid) && panePid > 0 ? { panePid } : {}),
    ...(dead === '1' && deadStatus !== '' && Number.isInteger(status)
      ? { deadStatus: status }
      : {}),
  };
}
