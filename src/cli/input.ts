// What a command reads besides its arguments: the text of `standing say` and `post` (argument,
// stdin or a file), the files `post` attaches, and the session's own socket and token.
import type { CliIo } from './cli-io.js';
import { readStreamText } from './read-stream-text.js';
import path from 'node:path';
import { LoopError } from '../errors.js';
import { readOutsideFile } from '../files/read-outside-file.js';

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

/** A message or a brief goes to serve in one request body, which holds at most 1 MiB. */
const maxTextFileBytes = 1024 * 1024;

/**
 * Reads a file a person named on the command line, relative to where they are, through the one
 * opener (docs/design.md §18): a FIFO or a device named by mistake is refused, not waited on.
 */
export async function readLocalFile(cwd: string, file: string, flag: string): Promise<string> {
  const absolute = path.resolve(cwd, file);
  try {
    return (await readOutsideFile(absolute, { maxBytes: maxTextFileBytes })).toString('utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoopError('bad_request', `cannot read ${absolute} (${reason}): check ${flag}`);
  }
}

/**
 * What the CLI reads at most of one `--file` before serve even sees it; serve then holds a post's
 * files to `slack.files.maxBytes` together, which the CLI cannot know (the session has no config).
 */
export const cliMaxFileBytes = 100 * 1024 * 1024;

export interface PostFile {
  readonly name: string;
  readonly contentBase64: string;
}

/**
 * Reads each `--file` of `the-loop post` in the CLI's own process (docs/design.md §18): with the
 * agent's permissions and its own /proc/self, through the one opener (only a regular file, opened
 * without blocking, checked on the open descriptor), and sends the bytes, never the path.
 */
export async function readPostFiles(cwd: string, files: readonly string[]): Promise<PostFile[]> {
  const read: PostFile[] = [];
  for (const file of files) {
    const absolute = path.resolve(cwd, file);
    const bytes = await readOutsideFile(absolute, { maxBytes: cliMaxFileBytes }).catch(
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        const code = error instanceof LoopError ? error.code : 'bad_request';
        throw new LoopError(code, `--file ${absolute}: ${reason}`);
      },
    );
    read.push({ name: path.basename(absolute), contentBase64: bytes.toString('base64') });
  }
  return read;
}

/** What the-loop puts in every session it starts (docs/design.md §3.2) so the agent can speak as itself. */
export function sessionEnv(
  env: NodeJS.ProcessEnv,
): { readonly token: string; readonly socketPath: string } | undefined {
  const token = env['THE_LOOP_SESSION_TOKEN'];
  const socketPath = env['THE_LOOP_SOCKET'];
  return token && socketPath ? { token, socketPath } : undefined;
}
