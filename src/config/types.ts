/**
 * The resolved configuration: every default applied, every path absolute. Hand-written to read
 * well; test/unit/config/types-match-schema.test.ts keeps it equal to schemas/config.schema.json,
 * which stays the single source of truth.
 */

export type ScopeMode = 'open' | 'addressed' | 'locked';

export interface InstanceConfig {
  /** "" when the instance is unnamed. */
  readonly name: string;
  readonly scope: { readonly mode: ScopeMode; readonly workItems: readonly string[] };
}

export interface HarnessConfig {
  readonly kind: 'claude' | 'command';
  readonly command: string;
  readonly args: readonly string[];
  /** Agent harnesses get the boot directive and framed messages; a plain shell gets neither. */
  readonly agent: boolean;
  /** tmux key name sent by `!interrupt`. */
  readonly interruptKey: string;
  /** claude kind: the-loop's MCP server and an allow rule for its tools (default true). */
  readonly mcp?: boolean;
  /** command kind: the session is ready once capture-pane matches this regular expression. */
  readonly readyPattern?: string;
  /** claude kind: the `--permission-mode` sessions start with (docs/design.md §23). */
  readonly permissionMode?: ClaudePermissionMode;
}

/** `ask` is `default` or `manual`, whichever the installed Claude Code knows. */
export type ClaudePermissionMode = 'ask' | 'auto' | 'acceptEdits' | 'plan';

export interface StandingSessionConfig {
  readonly name: string;
  readonly description: string;
  readonly harness: string;
  readonly args: readonly string[];
  /** Absolute. */
  readonly cwd: string;
  readonly prompt?: string;
  /** Absolute. */
  readonly promptFile?: string;
  readonly autoStart: boolean;
  /** false: no Slack thread; otherwise the channel to announce in ("" = slack.channel). */
  readonly slack: false | { readonly channel: string };
}

export interface Config {
  /** Absolute path of the file this came from. */
  readonly configPath: string;
  readonly instance: InstanceConfig;
  /** Problems in the instance block that made it resolve to `locked` (docs/design.md §7.4). */
  readonly instanceWarnings: readonly string[];
  readonly state: {
    readonly root: string;
    /** Rotation of `<root>/events.jsonl` (docs/design.md §18 Growth). */
    readonly eventLog: { readonly maxBytes: number };
  };
  readonly tmux: { readonly socket: string };
  readonly harnesses: Readonly<Record<string, HarnessConfig>>;
  readonly defaults: { readonly harness: string; readonly cwd: string };
  readonly standing: {
    readonly autoStart: boolean;
    readonly allowedRoots: readonly string[];
    readonly sessions: readonly StandingSessionConfig[];
  };
  readonly delivery: {
    /** How long a delivery waits for a just-spawned session to become ready. */
    readonly readyTimeoutMs: number;
    /** Pause between paste and the submitting Enter. */
    readonly submitDelayMs: number;
    /** How long to wait for a harness to confirm a prompt before looking at its screen. */
    readonly confirmTimeoutMs: number;
    /** How long a message waits for a person's draft in the input box. */
    readonly draftWaitMs: number;
    /** How long a screen may show neither input box nor known dialog before it blocks (§13). */
    readonly unknownScreenMs: number;
  };
  readonly slack: {
    readonly enabled: boolean;
    readonly mode: 'socket' | 'http';
    readonly channel: string;
    readonly command: string;
    readonly authorizedUsers: readonly string[];
    /** Who may answer permission requests (docs/design.md §14); resolved to authorizedUsers when left out. */
    readonly approvers: readonly string[];
    /** What a turn's status message becomes at Stop; `off`: no status message (docs/design.md §15). */
    readonly progress: 'summary' | 'delete' | 'off';
    readonly files: { readonly maxBytes: number };
  };
  readonly github: {
    readonly repos: readonly { readonly repo: string; readonly path: string }[];
    readonly authorizedUsers: readonly string[];
    /** Resolved to authorizedUsers when left out. */
    readonly approvers: readonly string[];
    /** How much of a permission request a work-item comment shows. */
    readonly permissions: 'brief' | 'full' | 'off';
    readonly keyword: string;
    readonly webhook: { readonly path: string; readonly allowUnsigned: boolean };
    readonly poll: { readonly enabled: boolean; readonly intervalSeconds: number };
  };
  readonly permissions: {
    readonly timeoutSeconds: number;
    /** Modes an "Allow always" click may switch to; never bypassPermissions (docs/security.md). */
    readonly alwaysModes: readonly string[];
  };
  /** What agents may do to each other (docs/design.md §20). */
  readonly agents: { readonly maxMessagesPerMinute: number };
  readonly http: { readonly host: string; readonly port: number };
  /** "" = the TCP control-plane listener is off; otherwise `host:port`. */
  readonly api: { readonly listen: string };
  /** The browser dashboard (docs/design.md §19); `listen` is `off` or `host:port`. */
  readonly dashboard: {
    readonly listen: string;
    readonly allowRemote: boolean;
    readonly allowedHosts: readonly string[];
  };
  /** Left out: this instance runs alone and never touches NATS (docs/design.md §21). */
  readonly fleet?: FleetConfig;
}

export interface FleetConfig {
  /** One NATS URL, or several of a cluster separated by commas. */
  readonly nats: string;
  /** Where `/loop create NAME` goes without `on INSTANCE`; unset: the receiving instance. */
  readonly defaultInstance?: string;
  /** The streams' max age, as written (`24h`). */
  readonly retention: string;
}
