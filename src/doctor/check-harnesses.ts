import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

export interface HarnessFacts {
  readonly name: string;
  readonly command: string;
  /** Where the program was found; undefined when it is not there. */
  readonly foundAt?: string;
  /** Who relies on it: `defaults.harness`, `standing session demo`, … */
  readonly usedBy: readonly string[];
}

/**
 * One line per configured harness. A missing program fails only when something would start it:
 * the built-in `claude` harness missing on a machine that runs only shells is worth a warning.
 */
export function checkHarnesses(harnesses: readonly HarnessFacts[]): DoctorCheck[] {
  return harnesses.map((harness) => {
    const id = `harness:${harness.name}`;
    if (harness.foundAt !== undefined) return ok(id, `${harness.command} is ${harness.foundAt}`);
    const missing = `${harness.command} is not on PATH`;
    if (harness.usedBy.length === 0) {
      return warn(
        id,
        `${missing} (nothing uses this harness)`,
        `install it before a session uses harness ${harness.name}`,
      );
    }
    return fail(
      id,
      `${missing}, and ${harness.usedBy.join(', ')} uses it`,
      `install ${harness.command}, put it on PATH, or point harnesses.${harness.name}.command at it`,
    );
  });
}
