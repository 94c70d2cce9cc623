/**
 * A config as it stands after schema validation with ajv's `useDefaults`: every static default is
 * in place, paths are still as written, and the keys whose defaults depend on other keys (a
 * harness's kind-dependent keys, a session's harness and cwd) may be missing.
 */

export interface RawHarness {
  readonly kind?: 'claude' | 'command';
  readonly command?: string;
  readonly args?: readonly string[];
  readonly agent?: boolean;
  readonly interruptKey?: string;
  readonly readyPattern?: string;
}

export interface RawSession {
  readonly name: string;
  readonly description: string;
  readonly harness?: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly prompt?: string;
  readonly promptFile?: string;
  readonly autoStart: boolean;
  readonly slack: false | { readonly channel?: string };
}

export interface RawConfig {
  /** Never read from here: resolveInstance judges the block as the file had it. */
  readonly instance?: unknown;
  readonly state: { readonly root: string };
  readonly tmux: { readonly socket: string };
  readonly harnesses: Readonly<Record<string, RawHarness>>;
  readonly defaults: { readonly harness: string; readonly cwd: string };
  readonly standing: {
    readonly autoStart: boolean;
    readonly allowedRoots: readonly string[];
    readonly sessions: readonly RawSession[];
  };
  readonly delivery: {
    readonly readyTimeoutMs: number;
    readonly submitDelayMs: number;
    readonly confirmTimeoutMs: number;
  };
  readonly slack: {
    readonly enabled: boolean;
    readonly mode: 'socket' | 'http';
    readonly channel: string;
    readonly command: string;
    readonly authorizedUsers: readonly string[];
  };
  readonly github: {
    readonly repos: readonly { readonly repo: string; readonly path: string }[];
    readonly authorizedUsers: readonly string[];
    readonly keyword: string;
    readonly webhook: { readonly path: string; readonly allowUnsigned: boolean };
    readonly poll: { readonly enabled: boolean; readonly intervalSeconds: number };
  };
  readonly http: { readonly host: string; readonly port: number };
  readonly api: { readonly listen: string };
}
