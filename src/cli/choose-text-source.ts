export type TextSource =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'stdin' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'usage-error'; readonly message: string };

/**
 * Where the text of `standing say` and `post` comes from: the TEXT argument, `-` for stdin, a
 * `--file`, or (no TEXT at all) stdin when something is piped in. At a terminal, no TEXT is a
 * mistake rather than an invitation to type until Ctrl-D.
 */
export function chooseTextSource(input: {
  readonly text?: string;
  readonly file?: string;
  readonly stdinIsTerminal: boolean;
}): TextSource {
  if (input.file !== undefined && input.text !== undefined) {
    return { kind: 'usage-error', message: 'give TEXT or --file, not both' };
  }
  if (input.file !== undefined) return { kind: 'file', path: input.file };
  if (input.text === '-') return { kind: 'stdin' };
  if (input.text !== undefined) return { kind: 'literal', text: input.text };
  if (!input.stdinIsTerminal) return { kind: 'stdin' };
  return {
    kind: 'usage-error',
    message: 'give the text as an argument, or `-` to read it from stdin',
  };
}
