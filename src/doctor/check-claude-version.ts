import {
  CLAUDE_NEWEST_TESTED,
  parseClaudeVersion,
  testedRangePosition,
  testedRangeText,
} from '../harness/claude-versions.js';
import { ok, warn, type DoctorCheck } from './doctor-check.js';

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
