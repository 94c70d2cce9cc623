import { isAtLeast, parseTmuxVersion } from '../tmux/parse-tmux-version.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

/** What `tmux -V` printed, or why it could not run. */
export type TmuxVersionFacts = { readonly output: string } | { readonly error: string };

export function checkTmuxVersion(facts: TmuxVersionFacts): DoctorCheck {
  if ('error' in facts) {
    return fail(
      'tmux',
      `tmux does not run: ${facts.error}`,
      'install tmux 3.4 or newer (`apt-get install tmux`, `brew install tmux`) and put it on PATH',
    );
  }
  const version = parseTmuxVersion(facts.output);
  if (!isAtLeast(version, 3, 4)) {
    return warn(
      'tmux',
      `${version.raw} is older than 3.4: tmux 3.3 crashes its whole server (every session on it) ` +
        'on a paste into a dead pane; the-loop guards against it by never typing into a pane ' +
        'whose program has exited',
      'upgrade to tmux 3.4 or newer when you can',
    );
  }
  return ok('tmux', version.raw);
}
