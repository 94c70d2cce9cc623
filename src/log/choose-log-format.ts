import { printable } from '../refs.js';

export type LogFormat = 'json' | 'pretty';

export const logFormats: readonly LogFormat[] = ['json', 'pretty'];

export type LogFormatChoice =
  { readonly format: LogFormat } | { readonly problem: string; readonly format?: undefined };

/**
 * JSON lines for machines (a pipe, a file, systemd's journal), readable lines for a person at a
 * terminal (docs/design.md §16). `THE_LOOP_LOG_FORMAT` overrides either way; an unknown value is a mistake
 * to name, not a reason to guess.
 */
export function chooseLogFormat(setting: string | undefined, isTerminal: boolean): LogFormatChoice {
  if (setting === undefined || setting === '') return { format: isTerminal ? 'pretty' : 'json' };
  const format = logFormats.find((each) => each === setting);
  if (format !== undefined) return { format };
  return {
    problem: `THE_LOOP_LOG_FORMAT is \`${printable(setting)}\`: set it to json or pretty, or unset it (pretty on a terminal, json elsewhere)`,
  };
}
