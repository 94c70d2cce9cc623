import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ThreadBinding } from '../src/slack/thread-bindings.js';
import { mapLimit } from '../src/state/map-limit.js';

/** The thread each ref is bound to, read from `<state>/slack/threads/` as serve wrote it. */
export async function readBindings(stateRoot: string): Promise<Map<string, ThreadBinding>> {
  const dir = path.join(stateRoot, 'slack', 'threads');
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = names.filter((name) => name.endsWith('.json'));
  const bindings = await mapLimit(files, 32, async (name) => {
    const text = await readFile(path.join(dir, name), 'utf8').catch(() => '');
    return text ? (JSON.parse(text) as ThreadBinding) : undefined;
  });
  return new Map(bindings.flatMap((binding) => (binding ? [[binding.ref, binding]] : [])));
}
