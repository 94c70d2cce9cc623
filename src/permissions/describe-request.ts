import { sanitizeText } from '../delivery/frame-message.js';

/**
 * A request as a person judging it reads it (docs/design.md §14): the tool call in brief, and what
 * "allow always" would change.
 */

export const maxSummaryChars = 1_500;

/** Marks that turn text around or hide it (bidi overrides, zero-width joiners) confuse a reader. */
const invisible = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

type Input = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const size = (value: unknown): number => (typeof value === 'string' ? value.length : 0);
const chars = (count: number): string => `${count} character${count === 1 ? '' : 's'}`;

/** What a person needs to judge each of Claude Code's tools: the command, the path, the size. */
const byTool: Readonly<Record<string, (input: Input) => string | undefined>> = {
  Bash: (input) => (text(input['command']) ? `$ ${String(input['command'])}` : undefined),
  Edit: (input) =>
    text(input['file_path'])
      ? `${String(input['file_path'])}: replaces ${chars(size(input['old_string']))} with ` +
        `${chars(size(input['new_string']))}${input['replace_all'] === true ? ' (every match)' : ''}`
      : undefined,
  MultiEdit: (input) =>
    text(input['file_path'])
      ? `${String(input['file_path'])}: ${Array.isArray(input['edits']) ? input['edits'].length : 0} edits`
      : undefined,
  Write: (input) =>
    text(input['file_path'])
      ? `${String(input['file_path'])}: writes ${chars(size(input['content']))}`
      : undefined,
  Read: (input) => text(input['file_path']),
  NotebookEdit: (input) => text(input['notebook_path']),
  WebFetch: (input) => text(input['url']),
  WebSearch: (input) => text(input['query']),
  Glob: (input) =>
    text(input['pattern'])
      ? `${String(input['pattern'])}${text(input['path']) ? ` in ${String(input['path'])}` : ''}`
      : undefined,
  Grep: (input) =>
    text(input['pattern'])
      ? `${String(input['pattern'])}${text(input['path']) ? ` in ${String(input['path'])}` : ''}`
      : undefined,
};

/**
 * A short, plain-text summary of a tool call's input (docs/design.md §14): the command, the file path,
 * the size of an edit — never a file's contents. Terminal controls and invisible marks are
 * removed, and the result is cut to 1,500 characters. It is not yet safe for Slack: the Slack
 * edge escapes it (escapeMrkdwn), because the CLI and the API show it as it is.
 */
export function summarizeToolInput(tool: string, input: unknown): string {
  const fields: Input = typeof input === 'object' && input !== null ? (input as Input) : {};
  const described = byTool[tool]?.(fields) ?? fallback(fields);
  return cut(sanitizeText(described).replace(invisible, '').trim(), maxSummaryChars);
}

function fallback(input: Input): string {
  try {
    return JSON.stringify(input) ?? '';
  } catch (error) {
    // A tool input always comes from JSON; anything else is shown as unreadable, not thrown.
    if (error instanceof TypeError) return '(unreadable input)';
    throw error;
  }
}

/** Cuts at a code point, never inside a surrogate pair, and says it did. */
export function cut(value: string, max: number): string {
  const points = [...value];
  return points.length <= max ? value : `${points.slice(0, max - 1).join('')}…`;
}

type Fields = Readonly<Record<string, unknown>>;

const where: Readonly<Record<string, string>> = {
  localSettings: "this project's local settings",
  projectSettings: "the project's shared settings",
  userSettings: 'your user settings',
  session: 'this session only',
  cliArg: 'this run only',
};

const place = (fields: Fields): string =>
  where[String(fields['destination'])] ?? 'the agent’s settings';

const rule = (value: unknown): string => {
  const entry: Fields = typeof value === 'object' && value !== null ? (value as Fields) : {};
  const tool = typeof entry['toolName'] === 'string' ? entry['toolName'] : '?';
  return typeof entry['ruleContent'] === 'string' ? `${tool}(${entry['ruleContent']})` : tool;
};

const list = (value: unknown, each: (item: unknown) => string): string =>
  Array.isArray(value) && value.length > 0 ? value.map(each).join(', ') : 'nothing';

const byType: Readonly<Record<string, (fields: Fields) => string>> = {
  addRules: (f) =>
    `${String(f['behavior'] ?? 'allow')} ${list(f['rules'], rule)} from now on, in ${place(f)}`,
  replaceRules: (f) =>
    `replace the ${String(f['behavior'] ?? 'allow')} rules with ${list(f['rules'], rule)}, in ${place(f)}`,
  removeRules: (f) => `remove the rules ${list(f['rules'], rule)}, in ${place(f)}`,
  setMode: (f) => `switch the permission mode to ${String(f['mode'] ?? '?')}, in ${place(f)}`,
  addDirectories: (f) =>
    `allow work in the folders ${list(f['directories'], String)}, in ${place(f)}`,
  removeDirectories: (f) =>
    `stop work in the folders ${list(f['directories'], String)}, in ${place(f)}`,
};

/**
 * How many changes one request can show: past this, the Slack message would outgrow its blocks.
 * Changes beyond it are counted, said to be not applied, and not applied.
 */
export const maxShownChanges = 40;

/** The one mode a click never applies, whatever the config lists (docs/design.md §18). */
const neverFromClick = 'bypassPermissions';

export interface AlwaysPlan {
  /** The suggestions "Allow always" hands back to Claude Code as `updatedPermissions`. */
  readonly apply: readonly unknown[];
  /** Every change in words, one line each, the ones not applied marked so. */
  readonly changes: readonly string[];
}

/**
 * What "Allow always" would apply (docs/design.md §18: only what the approver saw). Every
 * suggestion is listed in words; a mode change to `bypassPermissions`, or to a mode not in
 * `permissions.alwaysModes`, is listed as not applied and left out, and so is anything past what
 * one message can show. The rest is applied.
 */
export function planAlways(
  suggestions: readonly unknown[],
  alwaysModes: readonly string[],
): AlwaysPlan {
  const apply: unknown[] = [];
  const changes: string[] = [];
  suggestions.forEach((suggestion, index) => {
    if (index >= maxShownChanges) return;
    const fields: Fields =
      typeof suggestion === 'object' && suggestion !== null ? (suggestion as Fields) : {};
    const words = describeSuggestion(fields);
    const refusal = modeRefusal(fields, alwaysModes);
    if (refusal === undefined) {
      apply.push(suggestion);
      changes.push(words);
    } else {
      changes.push(cut(sanitizeText(`NOT APPLIED: ${words} (${refusal})`), 400));
    }
  });
  const hidden = suggestions.length - maxShownChanges;
  if (hidden > 0) {
    changes.push(`NOT APPLIED: ${hidden} more changes, too many to show in one message`);
  }
  return { apply, changes };
}

/** Claude Code's `permission_suggestions` in words, one plain line each, sanitised and bounded. */
export function describeSuggestions(suggestions: readonly unknown[]): string[] {
  return suggestions.map((suggestion) =>
    describeSuggestion(
      typeof suggestion === 'object' && suggestion !== null ? (suggestion as Fields) : {},
    ),
  );
}

function describeSuggestion(fields: Fields): string {
  const type = String(fields['type'] ?? '');
  const words = byType[type]?.(fields) ?? `a settings change of type ${type || 'unknown'}`;
  return cut(sanitizeText(words), 300);
}

/** Why a suggested mode change is not applied from a click; undefined when it may be. */
function modeRefusal(fields: Fields, alwaysModes: readonly string[]): string | undefined {
  if (fields['type'] !== 'setMode') return undefined;
  const mode = String(fields['mode'] ?? '');
  if (mode === neverFromClick) return `${neverFromClick} is never applied from a click`;
  if (!alwaysModes.includes(mode)) return 'the mode is not in permissions.alwaysModes';
  return undefined;
}
