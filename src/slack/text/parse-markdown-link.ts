/** An inline link or image, `[label](url "title")` or `![alt](url)`, found at one position. */
export interface MarkdownLink {
  readonly label: string;
  readonly url: string;
  /** The index just after the closing parenthesis. */
  readonly end: number;
}

/** Reads the link that starts at `start` (at `[` or `![`), or undefined when there is none. */
export function parseMarkdownLink(text: string, start: number): MarkdownLink | undefined {
  const open = text.startsWith('![', start) ? start + 1 : start;
  if (text[open] !== '[') return undefined;
  const close = matchingBracket(text, open);
  if (close === undefined || text[close + 1] !== '(') return undefined;
  const target = readTarget(text, close + 2);
  if (target === undefined) return undefined;
  return { label: text.slice(open + 1, close), url: target.url, end: target.end };
}

function matchingBracket(text: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\') i += 1;
    else if (char === '[') depth += 1;
    else if (char === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return undefined;
}

/** The destination (`<…>` or a run without spaces, parentheses balanced), an optional title, `)`. */
function readTarget(text: string, from: number): { url: string; end: number } | undefined {
  let i = skipSpaces(text, from);
  let url = '';
  if (text[i] === '<') {
    const close = text.indexOf('>', i);
    if (close < 0) return undefined;
    url = text.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    const begin = i;
    for (; i < text.length; i += 1) {
      const char = text[i] ?? '';
      if (/\s/.test(char)) break;
      if (char === '(') depth += 1;
      if (char === ')') {
        if (depth === 0) break;
        depth -= 1;
      }
    }
    url = text.slice(begin, i);
  }
  i = skipSpaces(text, i);
  const title = /^(?:"[^"]*"|'[^']*'|\([^()]*\))/.exec(text.slice(i));
  if (title) i = skipSpaces(text, i + title[0].length);
  return text[i] === ')' ? { url, end: i + 1 } : undefined;
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  return i;
}
