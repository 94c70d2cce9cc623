import { neutralizeSlackText } from './neutralize-slack-text.js';

/** The input field that says most about a call, per kind of tool; the first one present wins. */
const argumentKeys = [
  'command',
  'file_path',
  'notebook_path',
  'pattern',
  'path',
  'url',
  'query',
  'description',
] as const;

export const maxArgumentChars = 60;

/**
 * `Bash: npm test`, `Edit: src/app.ts`: the tool and a short argument for a status line, from a
 * PreToolUse/PostToolUse payload. Only the first line of the argument, at most 60 characters,
 * made safe for Slack; never the rest of the input (it may hold a whole file's contents).
 */
export function describeToolCall(tool: string, input: unknown): string {
  const name = shorten(tool.trim() === '' ? 'tool' : tool, 40);
  const argument = pickArgument(input);
  return argument === '' ? name : `${name}: ${shorten(argument, maxArgumentChars)}`;
}

function pickArgument(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const fields = input as Record<string, unknown>;
  for (const key of argumentKeys) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') {
      return value.trim().split(/\r?\n/)[0]?.trim() ?? '';
    }
  }
  return '';
}

/** Cuts by code points (never half an emoji), then makes the result safe for Slack. */
function shorten(text: string, max: number): string {
  const points = [...text.replace(/\s+/g, ' ')];
  const cut = points.length > max ? `${points.slice(0, max - 1).join('')}…` : points.join('');
  return neutralizeSlackText(cut);
}
