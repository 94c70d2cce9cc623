import { randomBytes } from 'node:crypto';

/** RFC 4648 base32, lower case: no 0/1/8/9, so ids read aloud and typed into a comment survive. */
const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
const idPattern = /^p-[a-z2-7]{10}$/;

/**
 * A permission request's id (docs/design.md §17): `p-` and 10 base32 characters, 50 bits from the
 * system's cryptographic randomness. Whoever holds an id may try to decide the request, so it must
 * not be guessable from the ids seen before it; the approver check still applies to every try.
 */
export function newPermissionId(random: (size: number) => Buffer = randomBytes): string {
  const bytes = random(7);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let id = '';
  for (let index = 0; index < 10; index += 1) {
    id += alphabet[Number((bits >> BigInt(5 * index)) & 31n)] ?? '';
  }
  return `p-${id}`;
}

/** Whether a word is shaped like a permission id; case-insensitive, since people retype them. */
export function parsePermissionId(word: string): string | undefined {
  const id = word.toLowerCase();
  return idPattern.test(id) ? id : undefined;
}
