// Run as a child process by crash-safety.test.ts: writes large records as fast as it can until
// it is killed, printing `<key> <seq>` after each write has resolved.
import { silentLogger } from '../../../src/log/create-logger.js';
import { createRecordStore } from '../../../src/state/record-store.js';
import { crashKeys, isWholeCrashRecord, makeCrashRecord } from './crash-record.js';

const [dir, start] = process.argv.slice(2);
if (!dir || !start) throw new Error('usage: crash-writer.ts <dir> <first-seq>');

const store = createRecordStore({ dir, validate: isWholeCrashRecord, logger: silentLogger() });
for (let seq = Number(start); ; seq += 1) {
  const key = crashKeys[seq % crashKeys.length] ?? 'hot';
  await store.write(key, makeCrashRecord(key, seq));
  process.stdout.write(`${key} ${seq}\n`);
}
