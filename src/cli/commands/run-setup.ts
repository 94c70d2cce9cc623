// The commands that set an instance up and need no running serve: init, config check, manifest
// and doctor.
import { access, appendFile, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../config/load-config.js';
import { findExecutable } from '../../harness/find-executable.js';
import { buildInitConfig, initNextSteps, type InitChoices } from '../../init/build-init-config.js';
import { parseGithubRemote } from '../../init/parse-github-remote.js';
import { readGitOrigin, readGitTopLevel } from '../../init/read-git-origin.js';
import { type CliIo, isInteractive, readVersion } from '../cli-io.js';
import { formatConfigCheck } from '../../config/format-config.js';
import { stringify } from 'yaml';
import { buildSlackManifest } from '../../slack/build-slack-manifest.js';
import { doctorReport, formatDoctorLines } from '../../doctor/doctor-check.js';
import { runDoctor } from '../../doctor/run-doctor.js';
import type { CommandHandler } from '../command-context.js';

/**
 * `the-loop init [--yes]` (docs/design.md §16): writes `<repository>/.the-loop/config.yaml` and a
 * `.the-loop/.gitignore` that keeps `state/` out of git. Never overwrites a config; asks first on
 * a terminal, and without one needs --yes (exit 2).
 */
export const runInit: CommandHandler = async (context) => {
  const { io } = context;
  if (context.stringFlag('config') !== undefined) {
    // The written file names `..` as the repository root: it only works where init puts it.
    return context.usageError(
      'init always writes .the-loop/config.yaml at the repository root; --config does not apply',
    );
  }
  const top = await readGitTopLevel(io.cwd, io.env);
  if (top === undefined) {
    io.stderr.write(
      'error: not inside a git repository: run `the-loop init` in the repository the agents ' +
        'should work on (or `git init` one first)\n',
    );
    return 1;
  }
  const folder = path.join(top, '.the-loop');
  const configFile = path.join(folder, 'config.yaml');
  if (await exists(configFile)) {
    io.stderr.write(
      `error: ${configFile} exists already; init never overwrites a config: edit it ` +
        '(`the-loop config check` validates it), or move it away and run init again\n',
    );
    return 1;
  }
  const choices = await chooseSettings(io, top);
  const yes = context.hasFlag('yes');
  if (!yes && !isInteractive(io.stdin)) {
    return context.usageError(
      `init asks before it writes ${configFile}; without a terminal, pass --yes`,
    );
  }
  describe(io, configFile, choices);
  if (!yes && !(await confirm(io, `Write ${configFile}? [Y/n] `))) {
    io.stderr.write('nothing written\n');
    return 1;
  }
  await mkdir(folder, { recursive: true });
  await writeFile(configFile, buildInitConfig(choices), { flag: 'wx' });
  await ignoreState(path.join(folder, '.gitignore'));
  // The file must be one the-loop accepts; a refusal here is a bug in init, reported as such.
  await loadConfig(configFile, { env: io.env, cwd: io.cwd });
  context.print(`wrote ${configFile} and ${path.join(folder, '.gitignore')}\n\nNext:`);
  for (const step of initNextSteps(choices)) context.print(step);
  const here = await realpath(io.cwd).catch(() => io.cwd);
  if (here !== top) context.print(`(run these in ${top}, where the config is found by default)`);
  return 0;
};

async function chooseSettings(io: CliIo, top: string): Promise<InitChoices> {
  const [origin, claude] = await Promise.all([
    readGitOrigin(top, io.env),
    findExecutable('claude', { cwd: top, pathVariable: io.env['PATH'] ?? '' }),
  ]);
  const remote = origin === undefined ? undefined : parseGithubRemote(origin);
  return { harness: claude === undefined ? 'shell' : 'claude', ...(remote ? { remote } : {}) };
}

function describe(io: CliIo, configFile: string, choices: InitChoices): void {
  const repo = choices.remote
    ? `github.repos: ${choices.remote.owner}/${choices.remote.repo} (from the origin remote)`
    : 'github.repos: none (no GitHub origin remote)';
  io.stderr.write(
    `the-loop init: ${configFile}\n  ${repo}\n  defaults.harness: ${choices.harness}\n`,
  );
}

async function confirm(io: CliIo, question: string): Promise<boolean> {
  io.stderr.write(question);
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of lines) return !/^\s*n/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}

/** Adds `state/` to `.the-loop/.gitignore`, keeping whatever else is there. */
async function ignoreState(file: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === undefined) {
    await writeFile(file, '# the-loop state: records, event log, inbox, control socket\nstate/\n');
    return;
  }
  if (current.split('\n').some((line) => /^\/?state\/?$/.test(line.trim()))) return;
  await appendFile(file, `${current.endsWith('\n') || current === '' ? '' : '\n'}state/\n`);
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** `the-loop config check`: a refused config throws ConfigError, which main prints with exit 2. */
export const runConfigCheck: CommandHandler = async (context) => {
  const config = await context.loadConfig();
  if (context.json) context.printJson(config);
  else context.print(formatConfigCheck(config));
  return 0;
};

/** `the-loop manifest`: YAML to paste into "Create New App → From a manifest" (or JSON). */
export const runManifest: CommandHandler = async (context) => {
  const config = await context.loadConfig();
  const manifest = buildSlackManifest(config);
  if (context.json) {
    context.printJson(manifest);
    return 0;
  }
  const who = config.instance.name === '' ? 'this instance' : `instance ${config.instance.name}`;
  context.print(
    `# Slack app manifest for ${who}.\n` +
      '# Create the app at https://api.slack.com/apps → Create New App → From a manifest, then set\n' +
      '# SLACK_BOT_TOKEN (xoxb-…) and an app-level SLACK_APP_TOKEN (xapp-…, scope connections:write).\n' +
      stringify(manifest, { lineWidth: 0 }).trimEnd(),
  );
  return 0;
};

/** `the-loop doctor`: every check, one line each; exit 1 when any fails. Works without serve. */
export const runDoctorCommand: CommandHandler = async (context) => {
  const { io } = context;
  const checks = await runDoctor({
    configFile: context.configFile,
    env: io.env,
    cwd: io.cwd,
    version: await readVersion(),
  });
  const report = doctorReport(checks);
  if (context.json) context.printJson(report);
  else context.print(formatDoctorLines(checks));
  return report.ok ? 0 : 1;
};
