import { readFile } from 'node:fs/promises';

/** The package version, from the package.json two folders above this file (dist/cli/ or src/cli/). */
export async function readVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  const version =
    typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)['version']
      : undefined;
  return typeof version === 'string' ? version : 'unknown';
}
