import { open } from 'node:fs/promises';
import { processIo } from '../../../src/cli/cli-io.js';
import { stopOnSignal } from '../../../src/cli/commands/run-serve.js';

/**
 * serve's real stop-on-signal path around an app whose stop never ends: it opens the FIFO named
 * by argv[2] for reading, which no one writes, so one of libuv's file threads is blocked in
 * open(2) — where `process.exit` would wait for it forever. The test sends SIGTERM twice.
 */
const fifo = process.argv[2] ?? '';
const io = processIo();
const app = {
  async stop() {
    io.stderr.write('stopping\n');
    await open(fifo, 'r');
  },
};
// serve's listeners keep its process alive; here a timer does (signal handlers do not).
const alive = setInterval(() => undefined, 60_000);
// Said only once the handlers are in (stopOnSignal installs them before its first await): said
// before, a child preempted right after the write met the test's SIGTERM with no handler, and
// died of it silently.
const stopped = stopOnSignal(app, io);
io.stderr.write('waiting for a signal\n');
await stopped;
clearInterval(alive);
