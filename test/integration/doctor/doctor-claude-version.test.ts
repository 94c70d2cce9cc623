import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import type { DoctorReport } from '../../../src/doctor/doctor-check.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';
import { fakeIo } from '../../unit/cli/fake-io.js';

let dir: TempDir;

beforeEach(async () => {
  dir = await makeTempDir('loop-doctor-claude-');
});

afterEach(async () => {
  await dir.remove();
});

/** doctor --json with a `claude` harness that is a script answering `--version` with `said`. */
async function doctorWithClaude(said: string): Promise<DoctorReport> {
  const claude = path.join(dir.path, 'claude');
  await writeFile(claude, `#!/bin/sh\necho '${said}'\n`);
  await chmod(claude, 0o755);
  const configFile = path.join(dir.path, 'config.yaml');
  await writeFile(
    configFile,
    [
      `state: { root: ${JSON.stringify(path.join(dir.path, 'state'))} }`,
      `harnesses: { claude: { command: ${JSON.stringify(claude)} } }`,
    ].join('\n'),
  );
  const fake = fakeIo({ env: { PATH: process.env['PATH'] ?? '' }, cwd: dir.path });
  await main(['doctor', '--json', '--config', configFile], fake.io);
  return JSON.parse(fake.stdout()) as DoctorReport;
}

describe('doctor and the installed Claude Code (docs/design.md §23)', () => {
  it('prints the installed version inside the tested range', async () => {
    const report = await doctorWithClaude('2.1.332 (Claude Code)');
    expect(report.checks.find((check) => check.id === 'claude-version:claude')).toMatchObject({
      status: 'ok',
      message: 'Claude Code 2.1.332 (tested range 2.1.197–2.1.332)',
    });
  });

  it('warns outside the range, naming it', async () => {
    const report = await doctorWithClaude('2.1.400 (Claude Code)');
    const check = report.checks.find((each) => each.id === 'claude-version:claude');
    expect(check?.status).toBe('warn');
    expect(check?.message).toContain('2.1.400 is newer than the tested range 2.1.197–2.1.332');
  });
});
