import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLAUDE_NEWEST_TESTED } from '../../src/harness/claude-versions.js';

const run = promisify(execFile);

export const CLAUDE_CODE_PACKAGE = '@anthropic-ai/claude-code';

/** Set by the runner (`--claude <version>`): the version this run of the tier tests. */
export const CLAUDE_VERSION_ENV = 'THE_LOOP_CLAUDE_VERSION';

/**
 * The Claude Code version the tier runs: the one the runner was given, else the newest tested
 * (docs/design.md §23; the range lives in src/harness/claude-versions.ts).
 */
export function claudeCodeVersion(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[CLAUDE_VERSION_ENV];
  return given !== undefined && given !== '' ? given : CLAUDE_NEWEST_TESTED;
}

/** The cache folder the tier installs a version into: outside the clone, one per version. */
export function claudeCodeCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  version: string = claudeCodeVersion(env),
): string {
  const cache =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ''
      ? env.XDG_CACHE_HOME
      : path.join(homedir(), '.cache');
  return path.join(cache, 'the-loop-test', `claude-code-${version}`);
}

/** The installed native binary (the package's postinstall copies it over `bin/claude.exe`). */
export function claudeCodeBinary(
  env: NodeJS.ProcessEnv = process.env,
  version: string = claudeCodeVersion(env),
): string {
  return path.join(claudeCodeCacheDir(env, version), 'node_modules', '.bin', 'claude');
}

export type InstallOutcome =
  | { readonly ok: true; readonly binary: string; readonly installed: boolean }
  | { readonly ok: false; readonly reason: string };

/** The version the cached binary says it is; undefined when it is missing or does not run. */
export async function installedVersion(binary: string): Promise<string | undefined> {
  if (!existsSync(binary)) return undefined;
  try {
    const { stdout } = await run(binary, ['--version'], {
      timeout: 30_000,
      env: {
        ...process.env,
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });
    return stdout.trim().split(' ')[0];
  } catch {
    // A binary that does not run (a half-copied file, the placeholder stub) counts as not installed.
    return undefined;
  }
}

/**
 * Installs the pinned Claude Code from the npm registry into the cache, with its install scripts
 * and optional dependencies (the native binary is the optional `…-linux-x64` package, which the
 * postinstall script copies into place). It installs into a fresh folder and renames it over the
 * cache, so an interrupted install never leaves a cache that looks complete.
 */
export async function ensureClaudeCode(
  env: NodeJS.ProcessEnv = process.env,
  version: string = claudeCodeVersion(env),
): Promise<InstallOutcome> {
  const binary = claudeCodeBinary(env, version);
  if ((await installedVersion(binary)) === version) {
    return { ok: true, binary, installed: false };
  }
  const target = claudeCodeCacheDir(env, version);
  const staging = `${target}.partial-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await writeFile(path.join(staging, 'package.json'), '{ "private": true }\n');
  // `npm run` exports its own config as npm_* variables (a local prefix among them); the child npm
  // must install into the staging folder, not into the clone.
  const childEnv = Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  try {
    await run(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--include=optional',
        '--ignore-scripts=false',
        `${CLAUDE_CODE_PACKAGE}@${version}`,
      ],
      { cwd: staging, env: childEnv, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const detail =
      error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error);
    const last = detail.trim().split('\n').filter(Boolean).slice(-1)[0] ?? 'no output';
    return {
      ok: false,
      reason: `npm install ${CLAUDE_CODE_PACKAGE}@${version} failed: ${last}`,
    };
  }
  const staged = path.join(staging, 'node_modules', '.bin', 'claude');
  const said = await installedVersion(staged);
  if (said !== version) {
    await rm(staging, { recursive: true, force: true });
    return {
      ok: false,
      reason: `the installed claude says version ${said ?? 'nothing'} (the native binary or its postinstall is missing)`,
    };
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return { ok: true, binary, installed: true };
}
