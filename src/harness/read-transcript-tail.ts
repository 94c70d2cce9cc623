import os from 'node:os';
import path from 'node:path';
import { readOutsideFile, refusalOf } from '../files/read-outside-file.js';

/** Only the end of a transcript matters (the turn that just ended), and transcripts grow large. */
const tailBytes = 1024 * 1024;

/**
 * Claude Code's own projects folder, where it writes every transcript: `$CLAUDE_CONFIG_DIR/projects`
 * or `~/.claude/projects`, from serve's environment (which its sessions inherit).
 */
export function claudeProjectsDir(env: NodeJS.ProcessEnv): string {
  const configDir = env['CLAUDE_CONFIG_DIR'];
  if (configDir) return path.join(path.resolve(configDir), 'projects');
  return path.join(env['HOME'] || os.homedir(), '.claude', 'projects');
}

/**
 * The last MiB of the transcript a hook payload names, read with the one opener
 * (docs/design.md §18): only a regular file that really lies inside Claude Code's projects folder
 * (no FIFO, device, socket, /proc; a symlink out of the folder is refused). Undefined when the
 * payload names none or the file does not exist; a refused path throws the opener's LoopError.
 */
export async function readTranscriptTail(
  transcriptPath: unknown,
  projectsDir: string,
): Promise<string | undefined> {
  if (typeof transcriptPath !== 'string' || transcriptPath === '') return undefined;
  try {
    const bytes = await readOutsideFile(transcriptPath, {
      maxBytes: tailBytes,
      tail: true,
      inside: projectsDir,
    });
    return bytes.toString('utf8');
  } catch (error) {
    if (refusalOf(error) === 'missing') return undefined;
    throw error;
  }
}
