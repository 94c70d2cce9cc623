/** The `code` of a Node system error (`ENOENT`, `EEXIST`, …), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
