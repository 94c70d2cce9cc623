import { sanitizeText } from '../delivery/frame-message.js';

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
