/** The `code` of a Node system error (`ENOENT`, `ECONNREFUSED`…), or undefined for anything else. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
