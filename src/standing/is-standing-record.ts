import { isValidName } from '../refs.js';
import type { StandingRecord } from './standing-types.js';
import { isRecord } from '../guards.js';

/** Shape check for records read from disk; a file that fails it is skipped as corrupt. */
export function isStandingRecord(value: unknown): value is StandingRecord {
  if (!isRecord(value)) return false;
  const definition = value['definition'];
  return (
    value['version'] === 1 &&
    isValidName(value['name']) &&
    (value['source'] === 'declared' || value['source'] === 'created') &&
    (value['status'] === 'running' ||
      value['status'] === 'stopped' ||
      value['status'] === 'exited') &&
    (value['exitStatus'] === undefined || Number.isInteger(value['exitStatus'])) &&
    typeof value['createdAt'] === 'string' &&
    optionalString(value['conversationId']) &&
    optionalString(value['sessionToken']) &&
    isRecord(definition) &&
    definition['name'] === value['name'] &&
    typeof definition['harness'] === 'string' &&
    typeof definition['cwd'] === 'string' &&
    typeof definition['description'] === 'string' &&
    typeof definition['autoStart'] === 'boolean' &&
    Array.isArray(definition['args']) &&
    (definition['slack'] === false || isRecord(definition['slack']))
  );
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}
