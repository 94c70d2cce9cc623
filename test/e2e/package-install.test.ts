import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/fs-fixtures.js';
import { createServeFixture, shellHarness } from '../helpers/run-serve.js';

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
let consumer: string;

/**
 * The package as a user gets it (docs/design.md §16): `npm pack`, then `npm install -g` into a prefix of
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
  // A package of someone else's that depends on the tarball, as a script using the SDK would.
  consumer = path.join(dir.path, 'consumer');
  await mkdir(consumer);
  await writeFile(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: consumer,
    env: cleanEnv(),
    timeout: 240_000,
  });
}, 540_000);

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

describe('the SDK from the installed package (docs/sdk.md)', () => {
  it("`import { connect } from 'the-loop'` drives a real serve from a package of its own", async () => {
    const serve = await createServeFixture(() => ({
      ...shellHarness(),
      standing: { autoStart: true, allowedRoots: ['work'], sessions: [] },
    }));
    try {
      await serve.start();
      await writeFile(
        path.join(consumer, 'drive.mjs'),
        [
          "import { connect, LoopError } from 'the-loop';",
          'const loop = await connect({ config: process.argv[2] });',
          "const created = await loop.standing.create({ name: 'from-pkg', start: false });",
          'const names = (await loop.standing.list()).map((session) => session.name);',
          'let refused;',
          "try { await loop.standing.get('nobody'); } catch (error) {",
          '  refused = { loopError: error instanceof LoopError, code: error.code };',
          '}',
          'const events = loop.events({ since: 0 })[Symbol.asyncIterator]();',
          'const first = await events.next();',
          'await events.return();',
          'const instance = await loop.instance();',
          'console.log(JSON.stringify({ created: created.name, names, refused,',
          '  firstEvent: first.value.event, scope: instance.scope.mode }));',
        ].join('\n'),
      );
      const { stdout } = await run(process.execPath, ['drive.mjs', serve.configPath], {
        cwd: consumer,
        env: cleanEnv(),
      });
      expect(JSON.parse(stdout)).toEqual({
        created: 'from-pkg',
        names: ['from-pkg'],
        refused: { loopError: true, code: 'session_unknown' },
        firstEvent: 'serve.started',
        scope: 'open',
      });
    } finally {
      await serve.dispose();
    }
  });

  it('ships the types: a TypeScript file importing it type-checks, and a wrong call does not', async () => {
    await writeFile(
      path.join(consumer, 'check.ts'),
      [
        "import { connect, LoopError, type Loop, type LoopEvent, type StandingView } from 'the-loop';",
        "const loop: Loop = await connect({ socket: '/nowhere.sock' });",
        'const sessions: StandingView[] = await loop.standing.list();',
        "const outcome: 'delivered' | 'queued' | 'held' | 'unconfirmed' =",
        "  (await loop.standing.say('a', 'b')).outcome;",
        'for await (const event of loop.events({ since: 1 })) {',
        '  const seen: LoopEvent = event;',
        '  const id: number = seen.id;',
        '  void id;',
        '  break;',
        '}',
        "const code: string = new LoopError('not_found', 'x').code;",
        '// @ts-expect-error: the SDK has no such call',
        'await loop.standing.explode();',
        '// @ts-expect-error: say takes text',
        "await loop.standing.say('a');",
        'void sessions; void outcome; void code;',
        'export {};',
      ].join('\n'),
    );
    await writeFile(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
        },
        files: ['check.ts'],
      }),
    );
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], {
      cwd: consumer,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(checked.stdout).toBe('');
    expect(checked.code).toBe(0);

    // And the check can fail: a wrong type is an error.
    await writeFile(
      path.join(consumer, 'check.ts'),
      "import { connect } from 'the-loop';\nconst n: number = await connect();\nvoid n;\nexport {};\n",
    );
    const wrong = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).then(
      () => ({ code: 0, stdout: '' }),
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toContain("Type 'Loop' is not assignable to type 'number'");
  });
});
