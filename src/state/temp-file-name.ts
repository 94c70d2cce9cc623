import { randomBytes } from 'node:crypto';

/**
 * Temporary files sit beside their target so the final rename stays on one filesystem. The
 * leading dot keeps them out of every listing of records; pid and random part keep concurrent
 * writers (in this process or another) from sharing one.
 */
export function tempFileName(targetBase: string, pid: number = process.pid): string {
  return `.${targetBase}.${pid}.${randomBytes(6).toString('hex')}.tmp`;
}

export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
