import type { Config, HarnessConfig, StandingSessionConfig } from './types.js';

/**
 * A config as it stands after schema validation with ajv's `useDefaults`: every static default is
 * in place, paths are still as written, and the keys whose defaults depend on other keys (a
 * harness's kind-dependent keys, a session's harness and cwd) may be missing. Derived from
 * Config, so the two shapes cannot drift apart.
 */

export type RawHarness = Partial<HarnessConfig>;

export type RawSession = Omit<StandingSessionConfig, 'harness' | 'cwd' | 'slack'> & {
  readonly harness?: string;
  readonly cwd?: string;
  readonly slack: false | { readonly channel?: string };
};

/** Keys whose default is another key's value: absent until resolveConfig fills them in. */
type WithOptionalApprovers<T extends { readonly approvers: readonly string[] }> = Omit<
  T,
  'approvers'
> & { readonly approvers?: readonly string[] };

export type RawConfig = Omit<
  Config,
  'configPath' | 'instance' | 'instanceWarnings' | 'harnesses' | 'standing' | 'slack' | 'github'
> & {
  readonly slack: WithOptionalApprovers<Config['slack']>;
  readonly github: WithOptionalApprovers<Config['github']>;
  /** Never read from here: resolveInstance judges the block as the file had it. */
  readonly instance?: unknown;
  readonly harnesses: Readonly<Record<string, RawHarness>>;
  readonly standing: Omit<Config['standing'], 'sessions'> & {
    readonly sessions: readonly RawSession[];
  };
};
