// The programs the-loop runs on (docs/design.md §16): node, tmux and claude, each probed for its
// version and checked against what the-loop supports.
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';
import { execFile } from 'node:child_process';
import { isAtLeast, parseTmuxVersion } from '../tmux/parse-tmux-version.js';
import {
  CLAUDE_NEWEST_TESTED,
  parseClaudeVersion,
  testedRangePosition,
  testedRangeText,
} from '../harness/claude-versions.js';

export interface NodeVersionFacts {
  /** `process.versions.node`, e.g. `20.19.1`. */
  readonly version: string;
  /** package.json's `engines.node`, e.g. `>=20.19`. */
  readonly required: string;
}

const parts = (text: string): number[] | undefined => {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
};

function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let index = 0; index < 3; index += 1) {
    const a = version[index] ?? 0;
    const b = floor[index] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** The running Node against the package's `engines.node` (only the `>=X.Y` form is ever written). */
export function checkNodeVersion(facts: NodeVersionFacts): DoctorCheck {
  const version = parts(facts.version.replace(/^v/, ''));
  const floor = /^>=\s*(.+)$/.exec(facts.required.trim())?.[1];
  const floorParts = floor === undefined ? undefined : parts(floor);
  if (version === undefined || floorParts === undefined) {
    return warn(
      'node',
      `cannot compare Node ${facts.version} with engines.node \`${facts.required}\``,
      'run the-loop on Node 20.19 or newer',
    );
  }
  if (!atLeast(version, floorParts)) {
    return fail(
      'node',
      `Node ${facts.version} is older than the ${facts.required} the-loop needs`,
      'install Node 20.19 or newer (for example `nvm install 20`) and reinstall the-loop',
    );
  }
  return ok('node', `Node ${facts.version} (the-loop needs ${facts.required})`);
}

/** `tmux -V` with the caller's PATH. Asks no server anything, so it touches no session. */
export function probeTmuxVersion(env: NodeJS.ProcessEnv): Promise<TmuxVersionFacts> {
  return new Promise((resolve) => {
    execFile('tmux', ['-V'], { env, timeout: 5_000 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ output: stdout });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      resolve({
        error: code === 'ENOENT' ? 'tmux is not on PATH' : stderr.trim() || error.message,
      });
    });
  });
}

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

/** `<claude> --version`, with the auto-updater and other traffic off. Starts no session. */
export function probeClaudeVersion(
  harness: string,
  binary: string,
  env: NodeJS.ProcessEnv,
): Promise<ClaudeVersionFacts> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['--version'],
      {
        env: { ...env, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
        timeout: 15_000,
      },
      (error, stdout, stderr) => {
        if (error === null) resolve({ harness, output: stdout });
        else resolve({ harness, error: stderr.trim() || error.message });
      },
    );
  });
}

/** What `claude --version` said for one claude harness, or why it could not be asked. */
export interface ClaudeVersionFacts {
  readonly harness: string;
  readonly output?: string;
  readonly error?: string;
}

/**
 * The installed Claude Code against the tested range (docs/design.md §23): inside it is fine;
 * outside it may still work, but its screen is a contract the-loop has not checked.
 */
export function checkClaudeVersion(facts: ClaudeVersionFacts): DoctorCheck {
  const id = `claude-version:${facts.harness}`;
  const range = testedRangeText();
  const version = facts.output === undefined ? undefined : parseClaudeVersion(facts.output);
  if (version === undefined) {
    return warn(
      id,
      `could not read \`claude --version\` (${facts.error ?? (facts.output?.trim() || 'no output')})`,
      `check that the harness runs; the-loop is tested with Claude Code ${range}`,
    );
  }
  const position = testedRangePosition(version);
  if (position === 'inside') return ok(id, `Claude Code ${version} (tested range ${range})`);
  const install = `npm install -g @anthropic-ai/claude-code@${CLAUDE_NEWEST_TESTED}`;
  return warn(
    id,
    `Claude Code ${version} is ${position} than the tested range ${range}; its screen or hooks ` +
      `may differ from what the-loop reads`,
    position === 'older'
      ? `update it (\`${install}\`)`
      : `it may work; a session that meets a screen the-loop cannot read is blocked and says so. ` +
          `To stay in the range: \`${install}\``,
  );
}
