import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/fs-fixtures.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  files: string[];
};

/** npm's own variables (set when vitest runs under `npm test`) must not steer the inner npm. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  );

let dir: TempDir;
let tarball: string;
let packed: string[];
let installed: string;
let elsewhere: string;

/**
 * The package as a user gets it (DESIGN §16): `npm pack`, then `npm install -g` into a prefix of
 * its own, run from a folder that has nothing to do with the clone. Slow (the install fetches the
 * runtime dependencies, from npm's cache when it can), so it is all in this one file.
 */
beforeAll(async () => {
  dir = await makeTempDir('loop-package-');
  // dist/ is fresh: test/global-setup.ts built it. `npm pack` would run `prepare` (the same build)
  // again; skipping it keeps this test from compiling twice on a busy machine.
  const pack = await run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', dir.path],
    { cwd: repoRoot, env: cleanEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
  const [result] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  if (result === undefined) throw new Error('npm pack printed no result');
  tarball = path.join(dir.path, result.filename);
  packed = result.files.map((file) => file.path);
  const prefix = path.join(dir.path, 'prefix');
  await run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball],
    { cwd: dir.path, env: cleanEnv(), timeout: 240_000 },
  );
  installed = path.join(prefix, 'bin', 'the-loop');
  elsewhere = path.join(dir.path, 'somewhere', 'else');
  await mkdir(elsewhere, { recursive: true });
}, 300_000);

afterAll(async () => {
  await dir?.remove();
});

/** Runs the installed command from a folder outside the clone; a non-zero exit is a result. */
const theLoop = (args: string[]) =>
  run(installed, args, { cwd: elsewhere, env: { ...cleanEnv(), THE_LOOP_CONFIG: '' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );

describe('the packed package', () => {
  it('holds bin/, the built dist/ and schemas/, and no sources or tests', () => {
    expect(packed).toContain('bin/the-loop');
    expect(packed).toContain('dist/cli/main.js');
    expect(packed).toContain('dist/doctor/run-doctor.js');
    expect(packed).toContain('schemas/config.schema.json');
    expect(packed).toContain('package.json');
    expect(packed.filter((file) => /^(src|test|bench|node_modules)\//.test(file))).toEqual([]);
    // `npm ci` in a clone still builds dist/, which git does not hold.
    expect(manifest.scripts['prepare']).toBe('npm run build');
  });

  it('installed with npm install -g, `the-loop --version` runs from any folder', async () => {
    const { code, stdout } = await theLoop(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(manifest.version);
  });

  it('finds its schema inside the package, not in the current folder', async () => {
    await writeFile(path.join(elsewhere, 'config.yaml'), 'standing: { sessions: [] }\n');
    const { code, stdout } = await theLoop([
      'config',
      'check',
      '--config',
      'config.yaml',
      '--json',
    ]);
    expect(code).toBe(0);
    const config = JSON.parse(stdout) as { configPath: string; state: { root: string } };
    expect(config.configPath).toBe(path.join(elsewhere, 'config.yaml'));
    expect(config.state.root).toBe(path.join(elsewhere, 'state'));

    await writeFile(path.join(elsewhere, 'bad.yaml'), 'tmux: { sockt: x }\n');
    const bad = await theLoop(['config', 'check', '--config', 'bad.yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('tmux.sockt');
  });

  it('runs doctor from the package (it reads engines.node from the installed package.json)', async () => {
    // Its exit depends on this machine (tmux, tokens); the lines that matter here do not.
    const { stdout } = await theLoop(['doctor', '--json', '--config', 'config.yaml']);
    const report = JSON.parse(stdout) as { checks: { id: string; status: string }[] };
    expect(report.checks.find((check) => check.id === 'node')?.status).toBe('ok');
    expect(report.checks.find((check) => check.id === 'config')?.status).toBe('ok');
  });
});
