/**
 * The value `text` holds as JSON, or undefined when it is not JSON: for reading what another
 * program wrote (a log line, a transcript line, a record), where "not JSON" is an answer, not a
 * fault. The caller still checks the value's shape.
 */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
