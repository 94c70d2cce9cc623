import { LoopError } from '../errors.js';
import type { OutgoingFile } from './outgoing-file.js';

/** GitHub comments hold 65,536 characters; a file up to 60 KB leaves room for the words. */
export const maxFencedFileBytes = 60 * 1024;

/**
 * A text file as a fenced block for a GitHub comment (docs/design.md §15): its name, then the content in a
 * fence longer than any run of backticks inside it, so nothing in the file can close the block.
 * A file that is not UTF-8 text, or larger than 60 KB, is refused with why.
 */
export function fenceTextFile(file: OutgoingFile): string {
  if (file.content.length > maxFencedFileBytes) {
    throw new LoopError(
      'file_too_large',
      `GitHub takes a file only as text in the comment, up to 60 KB; ${file.name} is ` +
        `${file.content.length} bytes`,
    );
  }
  const text = decodeText(file.content);
  if (text === undefined) {
    throw new LoopError(
      'bad_request',
      `GitHub takes a file only as text in the comment; ${file.name} is not UTF-8 text`,
    );
  }
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const name = file.name.replace(/[\r\n]+/g, ' ').replace(/[`*_[\]<>]/g, '\\$&');
  return `**${name}**\n\n${fence}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function decodeText(content: Buffer): string | undefined {
  if (content.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
