import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

export interface NodeVersionFacts {
  /** `process.versions.node`, e.g. `20.19.1`. */
  readonly version: string;
  /** package.json's `engines.node`, e.g. `>=20.19`. */
  readonly required: string;
}

const parts = (text: string): number[] | undefined => {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
};

function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let index = 0; index < 3; index += 1) {
    const a = version[index] ?? 0;
    const b = floor[index] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** The running Node against the package's `engines.node` (only the `>=X.Y` form is ever written). */
export function checkNodeVersion(facts: NodeVersionFacts): DoctorCheck {
  const version = parts(facts.version.replace(/^v/, ''));
  const floor = /^>=\s*(.+)$/.exec(facts.required.trim())?.[1];
  const floorParts = floor === undefined ? undefined : parts(floor);
  if (version === undefined || floorParts === undefined) {
    return warn(
      'node',
      `cannot compare Node ${facts.version} with engines.node \`${facts.required}\``,
      'run the-loop on Node 20.19 or newer',
    );
  }
  if (!atLeast(version, floorParts)) {
    return fail(
      'node',
      `Node ${facts.version} is older than the ${facts.required} the-loop needs`,
      'install Node 20.19 or newer (for example `nvm install 20`) and reinstall the-loop',
    );
  }
  return ok('node', `Node ${facts.version} (the-loop needs ${facts.required})`);
}
