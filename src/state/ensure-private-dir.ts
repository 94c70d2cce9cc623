import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';

export const privateDirMode = 0o700;

/**
 * Creates `dir` and any missing parents as 0700. The mode given to mkdir is filtered by the
 * umask, so every folder created here is chmod-ed explicitly; folders that already existed are
 * left as the user made them.
 */
export async function ensurePrivateDir(dir: string): Promise<{ created: boolean }> {
  const target = path.resolve(dir);
  const first = await mkdir(target, { recursive: true, mode: privateDirMode });
  if (first === undefined) return { created: false };
  const created: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    created.push(current);
    if (current === first || current === path.dirname(current)) break;
  }
  for (const folder of created.reverse()) await chmod(folder, privateDirMode);
  return { created: true };
}
