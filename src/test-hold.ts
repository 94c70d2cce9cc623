import { writeFile } from 'node:fs/promises';

/**
 * Where a message can be held: a fleet envelope before this instance records it, or after, before
 * its ack (docs/fleet.md); an inbox entry after its Enter, before it is recorded done
 * (docs/architecture.md, "exactly once across a crash").
 */
export type HoldStage = 'before-record' | 'before-ack' | 'after-enter';

/** `<stage>:<marker file>`: the test seam for a serve killed mid-message. */
export const testHoldEnv = 'THE_LOOP_TEST_HOLD';

/**
 * A test seam for the moments a crash must lose nothing and repeat nothing: with
 * `THE_LOOP_TEST_HOLD=<stage>:<file>`, the first message to reach `stage` writes its id to `file`
 * and is held there until the process is killed. Once `file` exists nothing is held, so the
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
