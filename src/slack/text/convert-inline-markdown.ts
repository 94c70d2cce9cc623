import { escapeMrkdwn } from './escape-mrkdwn.js';
import { parseMarkdownLink } from './parse-markdown-link.js';

export interface InlineOptions {
  /** Inside a heading the whole line is bold already, so bold markers inside are dropped. */
  readonly insideBold?: boolean;
}

// Private-use characters stand in for finished pieces (code, links, URLs) while emphasis is
// rewritten around them, and for bold markers, so the italic pass cannot mistake `*b*` for `*i*`.
const slot = '\uE000';
const bold = '\uE001';
const slotPattern = new RegExp(`${slot}(\\d+)${slot}`, 'g');

/** One line of GitHub Markdown → Slack mrkdwn: emphasis, code spans, links, escaping. */
export function convertInlineMarkdown(text: string, options: InlineOptions = {}): string {
  const pieces: string[] = [];
  const keep = (mrkdwn: string): string => `${slot}${pieces.push(mrkdwn) - 1}${slot}`;
  // Any stand-in character already in the text is kept as a piece, so it cannot be misread.
  const guarded = text.replace(/[\uE000\uE001]/g, keep);
  const converted = escapeMrkdwn(convertEmphasis(extractPieces(guarded, keep)));
  return converted
    .replaceAll(bold, options.insideBold === true ? '' : '*')
    .replace(slotPattern, (_, index: string) => pieces[Number(index)] ?? '');
}

function extractPieces(text: string, keep: (mrkdwn: string) => string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    const rest = text.slice(i);
    if (char === '`') {
      const run = /^`+/.exec(rest)?.[0] ?? '`';
      const close = findClosingRun(text, i + run.length, run.length);
      if (close === undefined) {
        out += keep(run);
        i += run.length;
      } else {
        out += keep(run + escapeMrkdwn(text.slice(i + run.length, close)) + run);
        i = close + run.length;
      }
      continue;
    }
    if (char === '\\' && /^\\[!-/:-@[-`{-~]/.test(rest)) {
      out += keep(escapeMrkdwn(rest[1] ?? ''));
      i += 2;
      continue;
    }
    const link = char === '[' || char === '!' ? parseMarkdownLink(text, i) : undefined;
    if (link) {
      out += keep(slackLink(link.url, link.label));
      i = link.end;
      continue;
    }
    const auto = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/.exec(
      rest,
    );
    if (auto?.[1] !== undefined) {
      const target = auto[1].includes(':') ? auto[1] : `mailto:${auto[1]}`;
      out += keep(`<${slackUrl(target)}>`);
      i += auto[0].length;
      continue;
    }
    const bare = /^https?:\/\/[^\s<>]+/.exec(rest);
    if (bare && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? '')) {
      const url = trimUrlEnd(bare[0]);
      out += keep(escapeMrkdwn(url));
      i += url.length;
      continue;
    }
    out += char;
    i += 1;
  }
  return out;
}

function findClosingRun(text: string, from: number, length: number): number | undefined {
  for (const match of text.slice(from).matchAll(/`+/g)) {
    if (match[0].length === length) return from + match.index;
  }
  return undefined;
}

function convertEmphasis(text: string): string {
  return text
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '~$1~')
    .replace(/\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*/g, `${bold}_$1_${bold}`)
    .replace(/(?<![\p{L}\p{N}_])___(?=\S)(.+?)(?<=\S)___(?![\p{L}\p{N}_])/gu, `${bold}_$1_${bold}`)
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, `${bold}$1${bold}`)
    .replace(/(?<![\p{L}\p{N}_])__(?=\S)(.+?)(?<=\S)__(?![\p{L}\p{N}_])/gu, `${bold}$1${bold}`)
    .replace(/(?<![\p{L}\p{N}*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\p{L}\p{N}*])/gu, '_$1_');
}

// Emphasis delimiters as GitHub reads them: `_` only at word edges, so `my_file_name` keeps its own.
const labelMarkup: readonly RegExp[] = [
  /(`+)(.+?)\1/g,
  /(\*\*|~~)(?=\S)(.+?)(?<=\S)\1/g,
  /(?<![\p{L}\p{N}_])(__?)(?=\S)(.+?)(?<=\S)\1(?![\p{L}\p{N}_])/gu,
  /(?<![\p{L}\p{N}*])(\*)(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\p{L}\p{N}*])/gu,
];

/** Slack link labels do not render formatting, so the label keeps only its words. */
function slackLink(url: string, label: string): string {
  const text = labelMarkup
    .reduce(
      (words, markup) => words.replace(markup, '$2'),
      label.replace(/\\([!-/:-@[-`{-~])/g, '$1'),
    )
    .trim();
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url)) {
    // A relative link cannot be followed from Slack: show where it points instead.
    const where = url === '' || url.startsWith('#') ? '' : ` (${url})`;
    return escapeMrkdwn(`${text}${where}`);
  }
  return text === '' || text === url
    ? `<${slackUrl(url)}>`
    : `<${slackUrl(url)}|${escapeMrkdwn(text)}>`;
}

/** `|` and `>` would end the link early; `&` must be an entity like everywhere else. */
function slackUrl(url: string): string {
  return url
    .replace(/&/g, '&amp;')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/\|/g, '%7C')
    .replace(/ /g, '%20');
}

/** A sentence's closing punctuation is not part of a bare URL; a balanced `)` is. */
function trimUrlEnd(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1] ?? '';
    const opens = url.slice(0, end).split('(').length - 1;
    const closes = url.slice(0, end).split(')').length - 1;
    if (/[.,;:!?'"*_~\]]/.test(last) || (last === ')' && closes > opens)) end -= 1;
    else return url.slice(0, end);
  }
}
