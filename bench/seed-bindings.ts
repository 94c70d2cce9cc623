import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bindingRecordKey, type ThreadBinding } from '../src/slack/thread-bindings.js';
import { mapLimit } from '../src/state/map-limit.js';

/** `count` bindings of old threads, each to a session that is long gone, as serve would have left them. */
export function oldBindings(count: number, channel: string): ThreadBinding[] {
  return Array.from({ length: count }, (_, index) => ({
    channel,
    threadTs: `1600000000.${String(index).padStart(6, '0')}`,
    ref: `standing:old-${index}`,
    createdAt: new Date(Date.UTC(2024, 0, 1) + index * 60_000).toISOString(),
  }));
}

/**
 * Writes binding records straight into `<state>/slack/threads/` in the record store's format (one
 * pretty-printed JSON file per binding, 0600, in 0700 folders) — without the fsync per file that
 * serve pays, which would only make seeding 10,000 of them slow.
 */
export async function seedBindings(
  stateRoot: string,
  bindings: readonly ThreadBinding[],
): Promise<void> {
  const dir = path.join(stateRoot, 'slack', 'threads');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await mapLimit(bindings, 64, (binding) =>
    writeFile(
      path.join(dir, `${bindingRecordKey(binding.channel, binding.threadTs)}.json`),
      `${JSON.stringify(binding, null, 2)}\n`,
      { mode: 0o600 },
    ),
  );
}
