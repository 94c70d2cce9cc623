import { LoopError } from '../errors.js';

/** What is wrong with one key. Stable: tests and callers branch on these, never on messages. */
export type ConfigIssueCode =
  | 'file_missing'
  | 'file_unreadable'
  | 'yaml_syntax'
  | 'unknown_key'
  | 'missing_key'
  | 'wrong_type'
  | 'invalid_value'
  | 'invalid_name'
  | 'duplicate_name'
  | 'prompt_conflict'
  | 'harness_unknown';

export interface ConfigIssue {
  /** The key path, such as `standing.sessions[1].name`; "" for the file as a whole. */
  readonly path: string;
  readonly code: ConfigIssueCode;
  /** Names the problem and the remedy. */
  readonly message: string;
}

/**
 * A config refused whole (docs/design.md §3.3). Its message lists every issue, one a line, so the CLI can
 * print it as it is; `issues` keeps them apart for callers that render their own.
 */
export class ConfigError extends LoopError {
  readonly issues: readonly ConfigIssue[];

  constructor(
    readonly configPath: string,
    issues: readonly ConfigIssue[],
  ) {
    super('config_invalid', describeIssues(configPath, issues), { configPath, issues });
    this.issues = issues;
  }
}

export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}

function describeIssues(configPath: string, issues: readonly ConfigIssue[]): string {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  const lines = issues.map(
    (issue) => `  - ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`,
  );
  return [`config ${configPath} is refused (${count}; nothing was applied):`, ...lines].join('\n');
}
