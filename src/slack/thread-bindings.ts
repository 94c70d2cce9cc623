import type { Logger } from '../log/create-logger.js';
import { createRecordStore } from '../state/record-store.js';

/** A Slack thread bound to a ref: replies in it go to that session. */
export interface ThreadBinding {
  readonly channel: string;
  readonly threadTs: string;
  readonly ref: string;
  readonly createdAt: string;
}

export interface ThreadBindings {
  find(channel: string, threadTs: string): Promise<ThreadBinding | undefined>;
  forRef(ref: string): Promise<ThreadBinding | undefined>;
  bind(binding: ThreadBinding): Promise<void>;
  unbindRef(ref: string): Promise<void>;
}

function isThreadBinding(value: unknown): value is ThreadBinding {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return ['channel', 'threadTs', 'ref', 'createdAt'].every((key) => typeof entry[key] === 'string');
}

/** Slack ids are upper case and timestamps hold a dot; record keys are lower case. */
export function bindingRecordKey(channel: string, threadTs: string): string {
  return `${channel.toLowerCase()}-${threadTs.replace(/[^0-9.]/g, '')}`;
}

/**
 * One file per binding under `<root>/slack/threads/`. Lookups by thread read one file; lookups by
 * ref use an index built once from the files and kept current by this process.
 */
export function createThreadBindings(options: {
  readonly dir: string;
  readonly logger: Logger;
}): ThreadBindings {
  const store = createRecordStore({
    dir: options.dir,
    validate: isThreadBinding,
    logger: options.logger,
  });
  let byRef: Promise<Map<string, ThreadBinding>> | undefined;
  // A reply can arrive while its thread's binding is still being written (the announcement's answer
  // and the first reply race); bindings being written are found here until they are on disk.
  const writing = new Map<string, ThreadBinding>();
  const index = (): Promise<Map<string, ThreadBinding>> => {
    byRef ??= store
      .list()
      .then((entries) => new Map(entries.map(({ value }) => [value.ref, value])));
    return byRef;
  };

  return {
    async find(channel, threadTs) {
      const key = bindingRecordKey(channel, threadTs);
      const binding = writing.get(key) ?? (await store.read(key));
      return binding && binding.channel === channel && binding.threadTs === threadTs
        ? binding
        : undefined;
    },
    async forRef(ref) {
      return (await index()).get(ref);
    },
    async bind(binding) {
      const key = bindingRecordKey(binding.channel, binding.threadTs);
      writing.set(key, binding);
      try {
        await store.write(key, binding);
        (await index()).set(binding.ref, binding);
      } finally {
        writing.delete(key);
      }
    },
    async unbindRef(ref) {
      const map = await index();
      const binding = map.get(ref);
      if (!binding) return;
      await store.remove(bindingRecordKey(binding.channel, binding.threadTs));
      map.delete(ref);
    },
  };
}
