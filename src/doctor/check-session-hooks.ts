import { ok, warn, type DoctorCheck } from './doctor-check.js';

/**
 * Running standing sessions started with hooks this the-loop no longer installs (an upgrade, a new
 * hook row): their agents still call the old commands, so replies, progress or permission requests
 * may not reach serve until each is restarted.
 */
export function checkSessionHooks(stale: readonly string[]): DoctorCheck {
  if (stale.length === 0) return ok('hooks', 'every running session runs the current hooks');
  const names = stale.map((name) => `\`${name}\``).join(', ');
  const first = stale[0] ?? '';
  return warn(
    'hooks',
    `${stale.length} running session(s) use hooks an older the-loop installed: ${names}`,
    `restart each, e.g. \`the-loop standing restart ${first}\` (its conversation is resumed)`,
  );
}
