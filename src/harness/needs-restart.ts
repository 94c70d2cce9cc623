import type { HarnessConfig } from '../config/types.js';
import { claudeHooksVersion } from './claude-settings.js';

/** The hooks version this the-loop installs for a harness kind; none for harnesses without hooks. */
export function currentHooksVersion(kind: HarnessConfig['kind']): string | undefined {
  return kind === 'claude' ? claudeHooksVersion() : undefined;
}

/**
 * Whether a running session was started with hooks this the-loop no longer installs (an older
 * the-loop, or another hook table): its harness still calls the old commands until restarted. A
 * record with no version predates versioned hooks; a harness without hooks never needs one.
 */
export function needsRestart(
  record: { readonly status: string; readonly hooksVersion?: string },
  harness: Pick<HarnessConfig, 'kind'> | undefined,
): boolean {
  if (record.status !== 'running' || harness === undefined) return false;
  const current = currentHooksVersion(harness.kind);
  return current !== undefined && record.hooksVersion !== current;
}
