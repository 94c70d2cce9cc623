import type { ConfigIssue } from './config-error.js';
import { dashboardListenProblems } from './dashboard-listen.js';
import { keyPath } from './key-path.js';
import { quote } from './quote.js';
import type { RawConfig } from './raw-config.js';

/**
 * The rules JSON Schema cannot express: names unique across a list, harness names that must exist,
 * keys that exclude each other. Runs only on a config that passed the schema.
 */
export function crossKeyIssues(raw: RawConfig, harnessNames: readonly string[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const known = harnessNames.join(', ');
  const unknownHarness = (segments: (string | number)[], name: string): void => {
    issues.push({
      path: keyPath(segments),
      code: 'harness_unknown',
      message: `${quote(name)} is not a configured harness: use one of ${known}, or define it under \`harnesses\``,
    });
  };
  if (!harnessNames.includes(raw.defaults.harness))
    unknownHarness(['defaults', 'harness'], raw.defaults.harness);

  const firstIndex = new Map<string, number>();
  raw.standing.sessions.forEach((session, index) => {
    const at = ['standing', 'sessions', index];
    const first = firstIndex.get(session.name);
    if (first === undefined) firstIndex.set(session.name, index);
    else {
      issues.push({
        path: keyPath([...at, 'name']),
        code: 'duplicate_name',
        message:
          `${quote(session.name)} names two sessions, \`${keyPath(['standing', 'sessions', first])}\` ` +
          `and \`${keyPath(at)}\`: give each standing session its own name`,
      });
    }
    if (session.harness !== undefined && !harnessNames.includes(session.harness)) {
      unknownHarness([...at, 'harness'], session.harness);
    }
    if (session.prompt !== undefined && session.promptFile !== undefined) {
      issues.push({
        path: keyPath(at),
        code: 'prompt_conflict',
        message: 'sets both `prompt` and `promptFile`: keep one of them',
      });
    }
  });

  const firstRepo = new Map<string, number>();
  raw.github.repos.forEach((entry, index) => {
    const key = entry.repo.toLowerCase();
    const first = firstRepo.get(key);
    if (first === undefined) firstRepo.set(key, index);
    else {
      issues.push({
        path: keyPath(['github', 'repos', index, 'repo']),
        code: 'duplicate_name',
        message:
          `${quote(entry.repo)} is listed twice, \`${keyPath(['github', 'repos', first])}\` and ` +
          `\`${keyPath(['github', 'repos', index])}\`: keep one entry per repository`,
      });
    }
  });

  for (const problem of dashboardListenProblems({ ...raw.dashboard, apiListen: raw.api.listen })) {
    issues.push({ path: problem.key, code: 'invalid_value', message: problem.message });
  }
  return issues;
}
