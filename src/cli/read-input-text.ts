import { LoopError } from '../errors.js';
import type { TextSource } from './choose-text-source.js';
import type { CliIo } from './cli-io.js';
import { readLocalFile } from './read-local-file.js';
import { readStreamText } from './read-stream-text.js';

/** The control plane refuses bodies over 1 MiB; say so before sending one. */
const maxTextBytes = 1024 * 1024 - 4096;

/** The text of `standing say` or `post`, from wherever chooseTextSource decided. */
export async function readInputText(
  source: Exclude<TextSource, { kind: 'usage-error' }>,
  io: CliIo,
): Promise<string> {
  if (source.kind === 'literal') return source.text;
  if (source.kind === 'file') return readLocalFile(io.cwd, source.path, '--file');
  const read = await readStreamText(io.stdin, { maxBytes: maxTextBytes });
  if (read.ending === 'too-large') {
    throw new LoopError(
      'payload_too_large',
      'the text on stdin is larger than 1 MiB: send a shorter message, or put it in a file and ' +
        'send its path',
    );
  }
  if (read.ending !== 'end') throw new LoopError('bad_request', 'could not read stdin');
  return read.text;
}
