import { readFile } from 'node:fs/promises';
import { isConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import type { Config } from '../config/types.js';
import { statePaths } from '../state/state-paths.js';
import { checkConfig } from './config.js';
import { checkControlSocket, probeControlSocket } from './control-socket.js';
import { checkGithub, gatherGithubFacts } from './github.js';
import {
  checkHarnesses,
  checkSessionCwds,
  checkSessionHooks,
  gatherCwdFacts,
  gatherHarnessFacts,
  knownSessions,
  staleHookSessions,
} from './sessions.js';
import {
  checkNodeVersion,
  checkTmuxVersion,
  probeTmuxVersion,
  checkClaudeVersion,
  probeClaudeVersion,
} from './versions.js';
import { checkFleet, gatherFleetFacts } from './fleet.js';
import { checkSlack, gatherSlackFacts } from './slack.js';
import { checkStateModes, readStateModes } from './state-modes.js';
import type { DoctorCheck } from './doctor-check.js';
import type { FetchLike } from './web-probe.js';

export interface DoctorDeps {
  readonly configFile: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly version: string;
  /** Default: the global fetch. */
  readonly fetch?: FetchLike;
  /** Default: this process's Node. */
  readonly nodeVersion?: string;
}

/**
 * Gathers the facts (files, PATH, tmux -V, the control socket, Slack, GitHub, the fleet) and hands each to
 * its pure check. Needs no serve; changes nothing. Without a usable config only the machine is
 * checked.
 */
export async function runDoctor(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const [config, machine] = await Promise.all([
    loadConfig(deps.configFile, { env: deps.env, cwd: deps.cwd }).then(
      (loaded) => ({ loaded }),
      (error: unknown) => {
        if (isConfigError(error)) return { refused: error };
        throw error;
      },
    ),
    machineChecks(deps),
  ]);
  const configLine = checkConfig(config);
  if (!('loaded' in config)) return [configLine, ...machine];
  return [configLine, ...machine, ...(await configChecks(config.loaded, deps))];
}

async function machineChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const [required, tmux] = await Promise.all([readRequiredNode(), probeTmuxVersion(deps.env)]);
  return [
    checkNodeVersion({ version: deps.nodeVersion ?? process.versions.node, required }),
    checkTmuxVersion(tmux),
  ];
}

async function configChecks(config: Config, deps: DoctorDeps): Promise<DoctorCheck[]> {
  const paths = statePaths(config.state.root);
  const surfaceDeps = {
    env: deps.env,
    userAgent: `the-loop/${deps.version} doctor`,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  };
  const sessions = await knownSessions(config);
  const [harnesses, cwds, stale, modes, socket, slack, github, fleet] = await Promise.all([
    gatherHarnessFacts(config, sessions, deps.env),
    gatherCwdFacts(sessions),
    staleHookSessions(config),
    readStateModes(config.state.root),
    probeControlSocket(paths.controlSocket),
    gatherSlackFacts(config, surfaceDeps),
    gatherGithubFacts(config, surfaceDeps),
    gatherFleetFacts(config, deps.env),
  ]);
  const claudeVersions = await Promise.all(
    harnesses
      .filter((harness) => config.harnesses[harness.name]?.kind === 'claude')
      .flatMap((harness) =>
        harness.foundAt === undefined
          ? []
          : [probeClaudeVersion(harness.name, harness.foundAt, deps.env)],
      ),
  );
  return [
    ...checkHarnesses(harnesses),
    ...claudeVersions.map(checkClaudeVersion),
    ...checkSessionCwds(cwds),
    checkSessionHooks(stale),
    checkStateModes(modes),
    checkControlSocket(socket, deps.version),
    ...checkSlack(slack),
    ...checkGithub(github),
    checkFleet(fleet),
  ];
}

/** package.json's engines.node, two folders above this file (src/doctor/ or dist/doctor/). */
async function readRequiredNode(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const engines = (JSON.parse(text) as { engines?: { node?: unknown } }).engines;
  return typeof engines?.node === 'string' ? engines.node : '>=20.19';
}
