import { sanitizeText } from '../delivery/frame-message.js';
import { cut } from './summarize-tool-input.js';

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
 * Claude Code's `permission_suggestions` in words (DESIGN §14: the message says what "allow
 * always" changes — a rule, a folder, a mode), one plain line each, sanitised and bounded.
 */
export function describeSuggestions(suggestions: readonly unknown[]): string[] {
  return suggestions.slice(0, 10).map((suggestion) => {
    const fields: Fields =
      typeof suggestion === 'object' && suggestion !== null ? (suggestion as Fields) : {};
    const type = String(fields['type'] ?? '');
    const words = byType[type]?.(fields) ?? `a settings change of type ${type || 'unknown'}`;
    return cut(sanitizeText(words), 300);
  });
}
