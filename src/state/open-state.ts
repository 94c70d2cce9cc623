import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from './ensure-private-dir.js';
import { readLastSeq } from './event-log-files.js';
import { openEventLog, prepareEventLog, type EventFeed, type EventLog } from './event-log.js';
import { loadInstanceIdentity } from './instance-identity.js';
import { ensureStateRoot, type StatePaths } from './state-paths.js';

/**
 * The state folder serve runs on: its paths (made private), this instance's owner id, and the
 * event log, opened after a leftover partial line is repaired, numbering on from its last line.
 */
export async function openState(
  root: string,
  logger: Logger,
  eventLog: { readonly maxBytes?: number } = {},
): Promise<{ paths: StatePaths; owner: string; events: EventLog & EventFeed }> {
  const paths = await ensureStateRoot(root, logger);
  await ensurePrivateDir(paths.harness);
  const { id: owner } = await loadInstanceIdentity(paths.root);
  await prepareEventLog(paths.events, logger);
  const lastSeq = await readLastSeq(paths.events, logger);
  return {
    paths,
    owner,
    events: openEventLog({ path: paths.events, logger, lastSeq, ...eventLog }),
  };
}
