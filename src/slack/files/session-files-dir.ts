import path from 'node:path';

/** `<state.root>/files`: what people sent each session from Slack, one folder per session. */
export function filesRoot(stateRoot: string): string {
  return path.join(stateRoot, 'files');
}

/** `<state.root>/files/<tmux session name>` (docs/design.md §17). The name is validated before it gets here. */
export function sessionFilesDir(stateRoot: string, tmuxName: string): string {
  return path.join(filesRoot(stateRoot), tmuxName);
}
