/**
 * A JSON object: not null, not an array. The one guard every reader of untrusted JSON (config
 * files, hook payloads, webhook bodies, transcripts, state records) uses before it reads a field.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
