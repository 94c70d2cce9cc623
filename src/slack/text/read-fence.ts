/** An opening code fence line (CommonMark: up to three spaces, then ``` or ~~~ or longer). */
export interface Fence {
  /** The opening line as written, such as "```ts", so a split part can reopen it the same way. */
  readonly line: string;
  readonly char: '`' | '~';
  readonly length: number;
  /** The language tag and anything after it; "" when there is none. */
  readonly info: string;
}

const openerPattern = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fence a line opens, or undefined when it opens none. */
export function readFence(line: string): Fence | undefined {
  const match = openerPattern.exec(line);
  if (!match) return undefined;
  const run = match[1] ?? '';
  const info = (match[2] ?? '').trim();
  const char = run.startsWith('`') ? '`' : '~';
  // A backtick in the info string would make the line inline code, not a fence.
  if (char === '`' && info.includes('`')) return undefined;
  return { line, char, length: run.length, info };
}
