import { closesFence, readFence, type Fence } from './fences.js';
import { convertInlineMarkdown } from './convert-inline-markdown.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';

const headingPattern = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const rulePattern = /^ {0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$/;
const bulletPattern = /^([ \t]*)[-*+][ \t]+(.*)$/;
const quotePattern = /^ {0,3}>[ \t]?(.*)$/;

/**
 * GitHub-flavoured Markdown, as agents write it, → Slack mrkdwn (docs/design.md §6, §8). Code blocks keep
 * their text (only the language tag goes, because Slack would show it as code); `&`, `<` and `>`
 * become entities everywhere, code included, because Slack reads control sequences before it
 * renders code and shows the entities as the characters they stand for.
 */
export function markdownToMrkdwn(md: string): string {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let open: Fence | undefined;
  for (const line of lines) {
    if (open) {
      const closed = closesFence(line, open);
      out.push(closed ? '```' : escapeMrkdwn(line));
      if (closed) open = undefined;
      continue;
    }
    open = readFence(line);
    out.push(open ? '```' : convertBlockLine(line));
  }
  if (open) {
    // An unclosed fence runs to the end (CommonMark); close it so Slack shows it as code.
    const trailingBlank = out.at(-1) === '';
    if (trailingBlank) out.pop();
    out.push('```', ...(trailingBlank ? [''] : []));
  }
  return out.join('\n');
}

function convertBlockLine(line: string): string {
  const heading = headingPattern.exec(line);
  if (heading) {
    const title = heading[1] ?? '';
    return title === '' ? '' : `*${convertInlineMarkdown(title, { insideBold: true })}*`;
  }
  if (rulePattern.test(line)) return '──────────';
  const bullet = bulletPattern.exec(line);
  if (bullet) return `${bullet[1] ?? ''}• ${convertInlineMarkdown(taskBox(bullet[2] ?? ''))}`;
  const quote = quotePattern.exec(line);
  // Slack reads a raw `>` at the start of a line as a quote; only `<` starts a control sequence.
  if (quote) return `> ${convertBlockLine(quote[1] ?? '')}`.trimEnd();
  return convertInlineMarkdown(line);
}

function taskBox(item: string): string {
  return item.replace(/^\[ \](?=\s)/, '☐').replace(/^\[[xX]\](?=\s)/, '☑');
}
