import { LoopError } from '../errors.js';
import { printable } from '../refs.js';

export const maxRecordKeyLength = 120;

const keyPattern = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * A key becomes a file name, so it must not be able to climb out of its folder or hide as a dot
 * file: lowercase letters, digits, `.`, `_` and `-`, a letter or digit first, never `..`.
 */
export function isValidRecordKey(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= maxRecordKeyLength &&
    keyPattern.test(value) &&
    !value.includes('..')
  );
}

export function assertRecordKey(value: string): void {
  if (isValidRecordKey(value)) return;
  throw new LoopError(
    'invalid_name',
    `\`${printable(String(value))}\` is not a valid record key: use 1–${maxRecordKeyLength} ` +
      `characters of a–z, 0–9, '.', '_' and '-', starting with a letter or digit, without '..'`,
    { key: value },
  );
}
