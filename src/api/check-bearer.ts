import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * True when an `Authorization` header carries exactly `Bearer <token>`. Both sides are hashed
 * first so the comparison takes the same time whatever the length or content of the guess.
 */
export function checkBearer(authorization: string | undefined, token: string): boolean {
  if (token === '' || authorization === undefined) return false;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (match?.[1] === undefined) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
