import { createHash, randomBytes } from 'node:crypto';

/** A message that carries a hash of itself, so a torn or mixed entry cannot pass as whole. */
export interface CrashMessage {
  readonly n: number;
  readonly payload: string;
  readonly hash: string;
}

const hashOf = (n: number, payload: string): string =>
  createHash('sha256').update(`${n}\n${payload}`).digest('hex');

export function makeCrashMessage(n: number): CrashMessage {
  const payload = randomBytes(300).toString('base64');
  return { n, payload, hash: hashOf(n, payload) };
}

export function isCrashMessage(value: unknown): value is CrashMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<CrashMessage>;
  return (
    typeof message.n === 'number' &&
    typeof message.payload === 'string' &&
    message.hash === hashOf(message.n, message.payload)
  );
}

/** Odd messages are handled (done) as soon as they are recorded; even ones stay. */
export const isHandled = (n: number): boolean => n % 2 === 1;
