/** A `key=value` word of `/loop create`, read from `text` at `from`. */
export type OptionRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'option'; readonly key: string; readonly value: string; readonly end: number }
  | { readonly kind: 'bad'; readonly key: string; readonly problem: string };

// Phones and Slack turn typed quotes into curly ones, so those close what they open too.
const closingQuotes: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '“': '”',
  '‘': '’',
};

/** Reads `key=value` or `key="a value"` starting at `from`, or says it is not an option. */
export function readOption(text: string, from: number): OptionRead {
  const head = /^([A-Za-z][A-Za-z0-9_-]*)=/.exec(text.slice(from));
  if (!head) return { kind: 'none' };
  const key = (head[1] ?? '').toLowerCase();
  const start = from + head[0].length;
  const quote = text[start] ?? '';
  const close = closingQuotes[quote];
  if (close !== undefined) {
    const end = text.indexOf(close, start + 1);
    if (end < 0)
      return { kind: 'bad', key, problem: `the quote after \`${key}=\` is never closed` };
    const after = text[end + 1];
    if (after !== undefined && !/\s/.test(after)) {
      return { kind: 'bad', key, problem: `put a space after the closing quote of \`${key}=\`` };
    }
    return { kind: 'option', key, value: text.slice(start + 1, end), end: end + 1 };
  }
  const value = /^\S*/.exec(text.slice(start))?.[0] ?? '';
  return { kind: 'option', key, value, end: start + value.length };
}
