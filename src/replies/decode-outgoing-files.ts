import path from 'node:path';
import { LoopError } from '../errors.js';
import type { OutgoingFile } from './outgoing-file.js';

export const maxOutgoingFiles = 10;

/** How large a post's body may be for files of `maxFileBytes` in all: base64, plus the text. */
export function postBodyLimit(maxFileBytes: number): number {
  return Math.ceil(maxFileBytes / 3) * 4 + maxOutgoingFiles * 1024 + 1024 * 1024;
}

/**
 * The files a session attaches to a post (docs/design.md §18): `the-loop post --file` read them in
 * its own process, with the agent's permissions, and sends `{name, contentBase64}` for each.
 * serve opens no path a session names, so an entry with a `path` is refused, as is one that is
 * not plain base64; together the files may be at most `maxBytes` (`slack.files.maxBytes`).
 */
export function decodeOutgoingFiles(value: unknown, maxBytes: number): OutgoingFile[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > maxOutgoingFiles) {
    throw new LoopError(
      'bad_request',
      `files must be a list of at most ${maxOutgoingFiles} {name, contentBase64} objects`,
    );
  }
  const files: OutgoingFile[] = [];
  let total = 0;
  for (const entry of value) {
    const file =
      typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    if ('path' in file) {
      throw new LoopError(
        'bad_request',
        'serve opens no path a session names: send the file itself as {name, contentBase64} ' +
          '(`the-loop post --file` does)',
      );
    }
    const name = file['name'];
    const content = file['contentBase64'];
    if (typeof name !== 'string' || typeof content !== 'string') {
      throw new LoopError('bad_request', 'each file needs a `name` and a `contentBase64`');
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(content) || content.length % 4 !== 0) {
      throw new LoopError('bad_request', `the content of ${name} is not base64`);
    }
    const bytes = Buffer.from(content, 'base64');
    total += bytes.length;
    if (total > maxBytes) {
      throw new LoopError(
        'file_too_large',
        `the files of one post are at most ${maxBytes} bytes together (slack.files.maxBytes): ` +
          'post fewer or smaller files',
      );
    }
    files.push({ name: baseName(name), content: bytes });
  }
  return files;
}

/** Only a base name goes on: no folder of the agent's machine, no control characters. */
function baseName(name: string): string {
  const base = [...path.basename(name.replace(/\\/g, '/'))]
    .filter((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f)
    .join('');
  return base === '' || base === '.' || base === '..' ? 'file' : base.slice(0, 200);
}
