// Run as a child process by inbox-crash.test.ts: adds messages in overlapping bursts until it is
// killed, printing `added <key> <n>` once an add has resolved and `done <key>` once a done has.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { silentLogger } from '../../../src/log/create-logger.js';
import { createInbox, type InboxEntry } from '../../../src/intake/inbox.js';
import {
  isCrashMessage,
  isHandled,
  makeCrashMessage,
  type CrashMessage,
} from './inbox-crash-message.js';

const [dir, start] = process.argv.slice(2);
if (!dir || !start) throw new Error('usage: inbox-crash-adder.ts <dir> <first-n>');

const inbox = createInbox({ dir, validate: isCrashMessage, logger: silentLogger() });
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const handle = async (entry: InboxEntry<CrashMessage>): Promise<void> => {
  if (!isHandled(entry.value.n)) return;
  await inbox.done(entry.key);
  say(`done ${entry.key}`);
};

// What an earlier run left is handled first, as a restarted serve does.
const recovered = await inbox.pending();
const working: Array<Promise<void>> = recovered.map(handle);
for (let n = Number(start), round = 0; ; round += 1) {
  for (let size = 1 + (round % 9); size > 0; size -= 1) {
    const added = inbox.add(makeCrashMessage(n++));
    working.push(
      added.then((entry) => {
        say(`added ${entry.key} ${entry.value.n}`);
        return handle(entry);
      }),
    );
  }
  // One turn of the event loop: the next burst arrives while this one is being written.
  await nextTurn();
  if (working.length > 200) await Promise.all(working.splice(0));
}
