/**
 * The event log is kept for weeks and read by people, so it must never hold a secret or the text
 * of a message (docs/design.md §4 step 9, §9). Every field passes through here before it is written.
 *
 * Names are compared lowercased with `-` and `_` removed, so `sessionToken`, `x-hub-token` and
 * `SLACK_BOT_TOKEN` all count as tokens.
 */
const secretSuffixes = ['token', 'secret', 'authorization', 'password', 'cookie'];
const contentNames = new Set(['text', 'body', 'prompt']);
/** The line's own keys: a field must not be able to forge them. */
const reservedNames = new Set(['ts', 'event', 'seq']);
const maxDepth = 6;

export function isForbiddenFieldName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[-_]/g, '');
  return contentNames.has(plain) || secretSuffixes.some((suffix) => plain.endsWith(suffix));
}

export function scrubEventFields(
  fields: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (reservedNames.has(name) || isForbiddenFieldName(name)) continue;
    const scrubbed = scrubValue(value, 1);
    if (scrubbed !== undefined) clean[name] = scrubbed;
  }
  return clean;
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value !== 'object' || value === null) return value;
  // Deep or cyclic structures are cut off rather than followed: the log must never hang.
  if (depth > maxDepth) return '[truncated]';
  // Dates, URLs and the like say how they want to be written; their result is scrubbed in turn.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return scrubValue(toJSON.call(value), depth + 1);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1) ?? null);
  if (value instanceof Error) return scrubError(value, depth);
  const clean: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (isForbiddenFieldName(name)) continue;
    const scrubbed = scrubValue(item, depth + 1);
    if (scrubbed !== undefined) clean[name] = scrubbed;
  }
  return clean;
}

function scrubError(error: Error, depth: number): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  const result: Record<string, unknown> = { name: error.name, message: error.message };
  if (code !== undefined) result.code = scrubValue(code, depth + 1);
  return result;
}
