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
