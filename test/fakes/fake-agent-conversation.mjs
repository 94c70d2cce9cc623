// @ts-check
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A resume id becomes a file name, so it must not be able to leave the folder. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * @typedef {{ ok: true, sessionId: string, source: 'startup' | 'resume' }
 *   | { ok: false, message: string }} OpenedConversation
 */

/**
 * Starts or resumes a conversation the way Claude Code does: a fresh id is claimed exclusively
 * (a second `--session-id` with the same id is refused), and `--resume` of an id that was never
 * started fails with Claude's own message, which the harness adapter's liveness probe relies on.
 *
 * @param {string} folder `<home>/conversations`
 * @param {{ sessionId?: string, resume?: string }} args
 * @param {{ newId: () => string, cwd: string, now: number }} context
 * @returns {OpenedConversation}
 */
export function openConversation(folder, args, context) {
  if (args.resume !== undefined) {
    const known = SAFE_ID.test(args.resume) && existsSync(path.join(folder, `${args.resume}.json`));
    if (!known)
      return { ok: false, message: `No conversation found with session ID: ${args.resume}` };
    return { ok: true, sessionId: args.resume, source: 'resume' };
  }
  const sessionId = args.sessionId ?? context.newId();
  if (!UUID.test(sessionId)) {
    return { ok: false, message: 'Error: Invalid session ID. Must be a valid UUID.' };
  }
  const record = { sessionId, cwd: context.cwd, createdAt: new Date(context.now).toISOString() };
  try {
    writeFileSync(path.join(folder, `${sessionId}.json`), `${JSON.stringify(record)}\n`, {
      flag: 'wx',
    });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') {
      return { ok: false, message: `Error: Session ID ${sessionId} is already in use.` };
    }
    throw error;
  }
  return { ok: true, sessionId, source: 'startup' };
}
