import { LoopError } from '../../errors.js';
import { chooseCut } from './choose-cut.js';
import { closesFence, planFenceRepair, type Fence } from './fences.js';

/**
 * Splits a long message into parts of at most `limit` UTF-16 code units for Slack (docs/design.md §6). It
 * cuts at a blank line, else a line break, else a space, outside code blocks when it can; a block
 * that must be split is closed at the end of one part and reopened with its own opening line
 * (say ```ts) at the start of the next, so each part renders on its own. The whitespace at a cut
 * is dropped. A text within the limit comes back as one part unchanged; an empty one as none.
 */
export function splitMessage(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 2) {
    throw new LoopError('internal', `splitMessage needs a whole limit of at least 2, not ${limit}`);
  }
  if (text.length <= limit) return text === '' ? [] : [text];
  const parts: string[] = [];
  let rest = text;
  let open: Fence | undefined;
  while (rest.trim() !== '') {
    const reopen = open ? (planFenceRepair(open, limit)?.reopen ?? '') : '';
    if (reopen.length + rest.length <= limit) {
      parts.push(reopen + rest);
      break;
    }
    const cut = chooseCut(rest, open, limit, reopen.length);
    open = cut.inside?.fence;
    const repair = open ? planFenceRepair(open, limit) : undefined;
    if (cut.head.trim() !== '') parts.push(reopen + cut.head + (repair?.close ?? ''));
    rest = cut.tail;
    if (open && repair && startsWithCloser(rest, open)) {
      // The block ends right after the cut: the part's added closer stands for this one.
      rest = rest.replace(/^[^\n]*\n?/, '').replace(/^(?:[ \t]*\n)+/, '');
      open = undefined;
    }
  }
  return parts;
}

function startsWithCloser(text: string, fence: Fence): boolean {
  const newline = text.indexOf('\n');
  return closesFence(newline < 0 ? text : text.slice(0, newline), fence);
}
