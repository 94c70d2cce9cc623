// @ts-check
import { appendFileSync } from 'node:fs';

/**
 * Appends one record as one JSON line. A single append per record keeps lines whole when several
 * fake agents (a benchmark runs dozens) share one home folder.
 *
 * @param {string} file
 * @param {unknown} record
 */
export function appendJsonLine(file, record) {
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}
