import { displayFileName } from './stored-file-names.js';

/** What became of one attached file. */
export type FileOutcome =
  | {
      readonly kind: 'stored';
      readonly name: string;
      readonly path: string;
      readonly bytes: number;
    }
  | { readonly kind: 'failed'; readonly name: string; readonly why: string };

/** One line per file (docs/design.md §17), for the end of the delivered text. */
export function formatFileLine(outcome: FileOutcome): string {
  const name = displayFileName(outcome.name);
  return outcome.kind === 'stored'
    ? `[file: ${outcome.path} (${name}, ${outcome.bytes} bytes)]`
    : `[file not delivered: ${name}: ${outcome.why}]`;
}

/** The text, then the file lines; a message that is only files is only the lines. */
export function withFileLines(text: string, outcomes: readonly FileOutcome[]): string {
  const lines = outcomes.map(formatFileLine).join('\n');
  if (text.trim() === '') return lines;
  return lines === '' ? text : `${text}\n\n${lines}`;
}
