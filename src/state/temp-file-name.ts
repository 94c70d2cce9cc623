import { randomBytes } from 'node:crypto';

// Random once per process, then counted: unique without a call into crypto per write.
const processPart = randomBytes(6).toString('hex');
let counter = 0;

/**
 * Temporary files sit beside their target so the final rename stays on one filesystem. The
 * leading dot keeps them out of every listing of records; pid, a random part drawn once per
 * process and a counter keep concurrent writers (in this process or another) from sharing one.
 */
export function tempFileName(targetBase: string, pid: number = process.pid): string {
  counter += 1;
  return `.${targetBase}.${pid}.${processPart}${counter.toString(36)}.tmp`;
}

export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
