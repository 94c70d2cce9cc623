/** How much each scenario does; `BENCH_QUICK=1` is a smoke test of the whole run. */
export interface BenchOptions {
  readonly quick: boolean;
  /** Build dist/ (`tsc -p tsconfig.build.json`) first; BENCH_SKIP_BUILD=1 uses it as it is. */
  readonly build: boolean;
  /** Timed deliveries for the floor and for `say`, after `warmup` untimed ones. */
  readonly iterations: number;
  readonly warmup: number;
  readonly burstSessions: number;
  readonly burstMessages: number;
  /** Bursts of `burstMessages`, one after another; the ack p99 is judged on their median. */
  readonly burstRounds: number;
  /** Messages per second; 0 sends the whole burst at once. */
  readonly burstRate: number;
  readonly webhookDeliveries: number;
  readonly webhookConcurrency: number;
  readonly scaleSessions: number;
  readonly scaleBindings: number;
  readonly listIterations: number;
  /** The fleet (needs nats-server): replies per hop kind, the burst over three instances. */
  readonly fleetHops: number;
  readonly fleetMessages: number;
  readonly fleetSessions: number;
  /** The soak (BENCH_ONLY=soak only): BENCH_SOAK_MINUTES, default 30; 20 sessions; 4 msgs/s. */
  readonly soakMinutes: number;
  readonly soakSessions: number;
  readonly soakRate: number;
  /** BENCH_ONLY=hooks,floor: run only these scenarios (all when unset; the soak only when named). */
  readonly only?: ReadonlySet<string>;
}

const full = {
  iterations: 60,
  warmup: 5,
  burstSessions: 50,
  burstMessages: 1_000,
  burstRounds: 3,
  webhookDeliveries: 2_000,
  scaleSessions: 200,
  scaleBindings: 10_000,
  listIterations: 40,
  fleetHops: 30,
  fleetMessages: 1_000,
  fleetSessions: 30,
};

const quick: typeof full = {
  iterations: 20,
  warmup: 3,
  burstSessions: 10,
  burstMessages: 100,
  burstRounds: 1,
  webhookDeliveries: 200,
  scaleSessions: 20,
  scaleBindings: 1_000,
  listIterations: 5,
  fleetHops: 5,
  fleetMessages: 100,
  fleetSessions: 6,
};

export function benchOptions(env: NodeJS.ProcessEnv): BenchOptions {
  const isQuick = env['BENCH_QUICK'] === '1';
  const sizes = isQuick ? quick : full;
  return {
    quick: isQuick,
    build: env['BENCH_SKIP_BUILD'] !== '1',
    ...sizes,
    iterations: whole(env, 'BENCH_ITERATIONS', sizes.iterations, 1),
    burstRate: whole(env, 'BENCH_BURST_RATE', 0, 0),
    webhookConcurrency: 16,
    soakMinutes: whole(env, 'BENCH_SOAK_MINUTES', 30, 1),
    soakSessions: 20,
    soakRate: 4,
    ...onlyScenarios(env['BENCH_ONLY']),
  };
}

/** The scenarios run.ts knows; BENCH_ONLY names some of them. */
export const scenarioNames = [
  'floor',
  'deliver',
  'deliver-nosettle',
  'burst',
  'webhook',
  'webhook-unauthorized',
  'scale',
  'hooks',
  'real',
  'fleet',
  'soak',
] as const;

function onlyScenarios(text: string | undefined): { only?: ReadonlySet<string> } {
  if (text === undefined || text.trim() === '') return {};
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(scenarioNames as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `bench: BENCH_ONLY names ${unknown.join(', ')}; the scenarios are ${scenarioNames.join(', ')}`,
    );
  }
  return { only: new Set(names) };
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < minimum) {
    throw new Error(`bench: ${name} must be a whole number ≥ ${minimum}, not \`${text}\``);
  }
  return Number(text);
}
