import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDedupeLedger } from '../../src/intake/dedupe-ledger.js';
import { createInbox } from '../../src/intake/inbox.js';
import { createThreadBindings } from '../../src/slack/thread-bindings.js';
import { captureLogger } from '../helpers/capture-logger.js';
import { makeFifo, releaseFifos, within } from './support/special-files.js';

const isText = (value: unknown): value is { text: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { text?: unknown }).text === 'string';

/**
 * The readers serve uses on the inbox, the dedupe ledger and the Slack thread bindings, each on a
 * real folder holding a FIFO where a file of theirs would be: each must answer (skipping it with
 * `state.file_not_regular`), not wait forever for a writer.
 */
describe('state readers next to a FIFO', () => {
  let dir: string;
  let fifos: string[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-fifo-state-'));
    fifos = [];
  });

  afterEach(async () => {
    await releaseFifos(fifos);
    await rm(dir, { recursive: true, force: true });
  });

  it('the inbox lists what is pending and skips a FIFO batch', async () => {
    const log = captureLogger();
    const inbox = createInbox({ dir, validate: isText, logger: log.logger });
    await inbox.add({ text: 'kept' });
    fifos.push(path.join(dir, 'batch-000000000000001-000000-1.json'));
    await makeFifo(fifos[0] ?? '');
    const pending = await within(5_000, inbox.pending());
    expect(pending, 'the inbox hung on a FIFO').not.toBe('timedOut');
    expect(pending === 'timedOut' ? [] : pending.map((entry) => entry.value)).toEqual([
      { text: 'kept' },
    ]);
    expect(log.events()).toContain('state.file_not_regular');
  });

  it('the dedupe ledger answers a claim whose record is a FIFO', async () => {
    const log = captureLogger();
    const ledger = createDedupeLedger({ dir, logger: log.logger });
    await mkdir(dir, { recursive: true });
    const id = 'slack:event:Ev0FIFO';
    const file = path.join(
      dir,
      `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.json`,
    );
    fifos.push(file);
    await makeFifo(file);
    const claimed = await within(5_000, ledger.claim(id, 'inbox-entry-1'));
    expect(claimed, 'the ledger hung on a FIFO').not.toBe('timedOut');
    expect(claimed).toBe(false);
    expect(log.events()).toContain('state.file_not_regular');
  });

  it('the thread bindings find other threads and skip a FIFO binding', async () => {
    const log = captureLogger();
    const bindings = createThreadBindings({ dir, logger: log.logger });
    await bindings.bind({
      channel: 'C0OPS',
      threadTs: '1.1',
      ref: 'standing:kept',
      createdAt: new Date().toISOString(),
    });
    fifos.push(path.join(dir, 'c0ops-2.2.json'));
    await makeFifo(fifos[0] ?? '');
    const fresh = createThreadBindings({ dir, logger: log.logger });
    const found = await within(5_000, fresh.forRef('standing:kept'));
    expect(found, 'the bindings hung on a FIFO').not.toBe('timedOut');
    expect(found).toMatchObject({ threadTs: '1.1' });
    const missing = await within(5_000, fresh.find('C0OPS', '2.2'));
    expect(missing).toBeUndefined();
    expect(log.events()).toContain('state.file_not_regular');
  });
});
