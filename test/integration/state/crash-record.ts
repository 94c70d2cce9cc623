import { createHash, randomBytes } from 'node:crypto';

/** A large record that carries a hash of itself, so a torn or mixed file cannot pass as whole. */
export interface CrashRecord {
  readonly key: string;
  readonly seq: number;
  readonly payload: string;
  readonly hash: string;
}

export const crashKeys = ['hot', 'hot', 'hot', 'k1', 'k2', 'k3'] as const;

function hashOf(key: string, seq: number, payload: string): string {
  return createHash('sha256').update(`${key}\n${seq}\n${payload}`).digest('hex');
}

export function makeCrashRecord(key: string, seq: number): CrashRecord {
  const payload = randomBytes(150_000).toString('base64'); // 200,000 characters
  return { key, seq, payload, hash: hashOf(key, seq, payload) };
}

export function isWholeCrashRecord(value: unknown): value is CrashRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<CrashRecord>;
  return (
    typeof record.key === 'string' &&
    typeof record.seq === 'number' &&
    typeof record.payload === 'string' &&
    record.payload.length === 200_000 &&
    record.hash === hashOf(record.key, record.seq, record.payload)
  );
}
