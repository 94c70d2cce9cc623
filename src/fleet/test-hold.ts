import { writeFile } from 'node:fs/promises';

/** Where a consumed envelope can be held: before this instance records it, or after, before the ack. */
export type HoldStage = 'before-record' | 'before-ack';

/** `<stage>:<marker file>`: the test seam for an instance killed mid-message (docs/fleet.md). */
export const testHoldEnv = 'THE_LOOP_TEST_FLEET_HOLD';

/**
 * A test seam (docs/design.md §21: an instance killed mid-message loses nothing): with
 * `THE_LOOP_TEST_FLEET_HOLD=<stage>:<file>`, the first envelope consumed writes its id to `file`
 * and is held at `stage` until the process is killed. Once `file` exists nothing is held, so the
 * same serve started again takes its messages normally. Unset, it does nothing.
 */
export function testHold(env: NodeJS.ProcessEnv): (stage: HoldStage, id: string) => Promise<void> {
  const spec = env[testHoldEnv] ?? '';
  const colon = spec.indexOf(':');
  if (colon < 0) return async () => undefined;
  const held = spec.slice(0, colon);
  const file = spec.slice(colon + 1);
  return async (stage, id) => {
    if (stage !== held) return;
    try {
      await writeFile(file, id, { flag: 'wx' });
    } catch {
      return;
    }
    await new Promise<never>(() => undefined);
  };
}
