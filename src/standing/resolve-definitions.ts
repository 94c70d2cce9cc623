import type { Config, StandingSessionConfig } from '../config/types.js';
import { LoopError } from '../errors.js';
import { isValidName, nameProblem } from '../refs.js';
import type { RecordStore } from '../state/record-store.js';
import { standingMessages } from './standing-messages.js';
import type {
  ShownSource,
  StandingDefinition,
  StandingRecord,
  StandingSource,
} from './standing-types.js';

export interface ResolvedStanding {
  readonly definition: StandingDefinition;
  readonly source: StandingSource;
  readonly record?: StandingRecord;
  /** For declared sessions: where in the config it is (`standing.sessions[2]`). */
  readonly configKey?: string;
  /** Recorded as declared, but the config no longer declares it (a reload removed it). */
  readonly undeclared?: boolean;
}

/** The source a session is shown with. */
export function shownSource(resolved: ResolvedStanding): ShownSource {
  return resolved.undeclared ? 'undeclared' : resolved.source;
}

/**
 * The one answer to "what is this session": a declared definition comes from the config (which
 * wins over whatever an old record holds), a created one from its record. Verbs cannot tell the
 * two apart except through `source`.
 */
export function resolveDefinitions(
  declared: readonly StandingSessionConfig[],
  records: readonly StandingRecord[],
): ResolvedStanding[] {
  const byName = new Map(records.map((record) => [record.name, record]));
  const result: ResolvedStanding[] = declared.map((session, index) => {
    const record = byName.get(session.name);
    byName.delete(session.name);
    return {
      definition: session,
      source: 'declared',
      configKey: `standing.sessions[${index}]`,
      ...(record ? { record } : {}),
    };
  });
  for (const record of byName.values()) {
    // A record of a session that used to be declared and was removed from the config still
    // shows, as undeclared, so it can be stopped.
    result.push({
      definition: record.definition,
      source: record.source,
      record,
      ...(record.source === 'declared' ? { undeclared: true } : {}),
    });
  }
  return result.sort((a, b) => a.definition.name.localeCompare(b.definition.name));
}

/** Every standing session: the ones the config declares and the ones recorded (created). */
export async function resolveAllStanding(
  config: Config,
  store: RecordStore<StandingRecord>,
): Promise<ResolvedStanding[]> {
  return resolveDefinitions(
    config.standing.sessions,
    (await store.list()).map((entry) => entry.value),
  );
}

/** The one session `name` means; a name that is not valid or not known is refused. */
export async function resolveOneStanding(
  config: Config,
  store: RecordStore<StandingRecord>,
  name: string,
): Promise<ResolvedStanding> {
  if (!isValidName(name)) throw new LoopError('invalid_name', nameProblem(name));
  const record = await store.read(name);
  const [found] = resolveDefinitions(
    config.standing.sessions.filter((session) => session.name === name),
    record ? [record] : [],
  );
  if (!found) throw new LoopError('session_unknown', standingMessages.unknown(name));
  return found;
}
