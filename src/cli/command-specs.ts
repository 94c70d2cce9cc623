/**
 * Every command the CLI knows (docs/design.md §3.1), as data: the parser, the help text and the docs test
 * all read this one table, so an option cannot exist in one place and be missing in another.
 */

export type CommandId =
  | 'serve'
  | 'status'
  | 'instance'
  | 'fleet'
  | 'standing list'
  | 'standing get'
  | 'standing create'
  | 'standing delete'
  | 'standing start'
  | 'standing stop'
  | 'standing restart'
  | 'standing say'
  | 'post'
  | 'hook'
  | 'mcp'
  | 'config check'
  | 'reload'
  | 'manifest'
  | 'workitem list'
  | 'workitem start'
  | 'workitem stop'
  | 'doctor'
  | 'init'
  | 'permissions'
  | 'dashboard';

export interface ArgSpec {
  /** The key the handler reads. */
  readonly key: string;
  /** `name` values must be valid names (checked before any request). */
  readonly kind: 'name' | 'text' | 'word';
  readonly optional?: boolean;
}

export interface FlagSpec {
  readonly name: string;
  /** The placeholder of the value the flag takes; none for a switch. */
  readonly value?: string;
  readonly help: string;
  /** May be given more than once; the values are kept in order. */
  readonly repeatable?: boolean;
}

export interface CommandSpec {
  readonly id: CommandId;
  /**
   * The synopsis after `the-loop `, written by hand (a test checks it names every flag); a long one
   * breaks into lines with `\n`, and the help aligns them.
   */
  readonly usage: string;
  readonly summary: string;
  readonly args: readonly ArgSpec[];
  readonly flags: readonly FlagSpec[];
  /** Whether `--json` is accepted. */
  readonly json: boolean;
  /** Further help lines. */
  readonly notes?: readonly string[];
}

export const globalFlags: readonly FlagSpec[] = [
  {
    name: 'config',
    value: 'PATH',
    help: 'the config file (default: $THE_LOOP_CONFIG, else .the-loop/config.yaml)',
  },
  { name: 'json', help: 'print JSON instead of text (commands that show something)' },
  { name: 'help', help: 'show help (or `the-loop help [COMMAND]`)' },
];

const name: ArgSpec = { key: 'name', kind: 'name' };
const optionalName: ArgSpec = { ...name, optional: true };
const optionalText: ArgSpec = { key: 'text', kind: 'text', optional: true };

export const commandSpecs: readonly CommandSpec[] = [
  {
    id: 'serve',
    usage: 'serve',
    summary: 'run the bot: control socket, standing sessions, Slack and GitHub',
    args: [],
    flags: [],
    json: false,
    notes: [
      'Logs on stdout: readable lines on a terminal, JSON lines elsewhere',
      '(THE_LOOP_LOG_FORMAT=json|pretty overrides; level from THE_LOOP_LOG_LEVEL, default info).',
      'Ctrl-C or SIGTERM stops serving; the sessions keep running. A second signal exits at once.',
    ],
  },
  {
    id: 'status',
    usage: 'status',
    summary: 'health of the instance; exit 1 when not ok',
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'instance',
    usage: 'instance',
    summary: 'name, scope mode, declared and managed work items',
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'fleet',
    usage: 'fleet',
    summary: "the fleet's instances: live, or still holding a session name",
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'standing list',
    usage: 'standing list',
    summary: 'every standing session, declared and created',
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'standing get',
    usage: 'standing get NAME',
    summary: 'one standing session in detail',
    args: [name],
    flags: [],
    json: true,
  },
  {
    id: 'standing create',
    usage:
      'standing create NAME [--harness H] [--cwd DIR] [--prompt TEXT | --prompt-file F]\n' +
      '[--description TEXT] [--slack-channel C] [--no-start] [--no-auto-start]',
    summary: 'create a standing session (and start it)',
    args: [name],
    flags: [
      {
        name: 'harness',
        value: 'H',
        help: 'a configured harness name (default: defaults.harness)',
      },
      {
        name: 'cwd',
        value: 'DIR',
        help: 'working directory, under standing.allowedRoots (relative to where you are)',
      },
      { name: 'prompt', value: 'TEXT', help: 'the brief appended to the boot directive' },
      { name: 'prompt-file', value: 'F', help: 'read the brief from this file instead' },
      { name: 'description', value: 'TEXT', help: 'one line saying what the session is for' },
      {
        name: 'slack-channel',
        value: 'C',
        help: 'announce its thread in this channel (default: slack.channel)',
      },
      { name: 'no-start', help: 'record it but do not start it now' },
      { name: 'no-auto-start', help: 'do not start it when serve starts' },
    ],
    json: true,
  },
  {
    id: 'standing delete',
    usage: 'standing delete NAME',
    summary: 'stop a created session and forget it (declared ones live in the config)',
    args: [name],
    flags: [],
    json: true,
  },
  {
    id: 'standing start',
    usage: 'standing start [NAME]',
    summary: 'start a session; no NAME: every auto-start session',
    args: [optionalName],
    flags: [],
    json: true,
  },
  {
    id: 'standing stop',
    usage: 'standing stop [NAME]',
    summary: 'stop a session (the record stays); no NAME: every running session',
    args: [optionalName],
    flags: [],
    json: true,
  },
  {
    id: 'standing restart',
    usage: 'standing restart NAME',
    summary: 'stop and start a session, resuming its conversation',
    args: [name],
    flags: [],
    json: true,
  },
  {
    id: 'standing say',
    usage: 'standing say NAME [TEXT | -]',
    summary: "type a message into a session ('-', or no TEXT with piped input, reads stdin)",
    args: [name, optionalText],
    flags: [],
    json: true,
    notes: ['The message is framed as coming from $USER. Text starting with - goes after --.'],
  },
  {
    id: 'post',
    usage: 'post [TEXT | -] [--file F]',
    summary: 'from inside a session: reply to the people it works for',
    args: [optionalText],
    flags: [
      {
        name: 'file',
        value: 'F',
        help: 'attach this file (repeatable): uploaded to Slack; on GitHub a text file up to 60 KB',
        repeatable: true,
      },
    ],
    json: true,
    notes: [
      'Needs THE_LOOP_SESSION_TOKEN and THE_LOOP_SOCKET, which the-loop sets in its sessions.',
    ],
  },
  {
    id: 'hook',
    usage: 'hook EVENT [--wait SECONDS]',
    summary: 'called by Claude Code hooks; reads the hook JSON on stdin',
    args: [{ key: 'event', kind: 'word' }],
    flags: [
      {
        name: 'wait',
        value: 'SECONDS',
        help: 'how long to wait for serve to answer (default 0.7)',
      },
    ],
    json: false,
    notes: [
      "Prints serve's answer (Claude Code's hook output) on stdout, or nothing; always exits 0.",
      'Sessions call it through bin/the-loop-hook, which does the same with curl.',
      'PermissionRequest waits for a decision (its --wait is permissions.timeoutSeconds plus a margin).',
    ],
  },
  {
    id: 'mcp',
    usage: 'mcp',
    summary: "an MCP server on stdio: list this instance's sessions and message them",
    args: [],
    flags: [],
    json: false,
    notes: [
      'Tools: list_sessions, get_session, say, get_instance, and inside a session post.',
      'Every claude session has it (--mcp-config); docs/mcp.md adds it to any MCP client.',
    ],
  },
  {
    id: 'config check',
    usage: 'config check',
    summary: 'validate and print the resolved config; exit 2 on error',
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'reload',
    usage: 'reload',
    summary: 'make the running serve re-read its config; exit 2 when the file is refused',
    args: [],
    flags: [],
    json: true,
    notes: [
      'Names the changed keys that need a restart of serve (they keep their running value).',
      "Finds serve through the file's state.root, read leniently: it works on a broken file.",
      'Same as SIGHUP to serve, or POST /api/v1/reload.',
    ],
  },
  {
    id: 'manifest',
    usage: 'manifest',
    summary: 'print the Slack app manifest (YAML) for this instance',
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'workitem list',
    usage: 'workitem list',
    summary: "this instance's work-item sessions",
    args: [],
    flags: [],
    json: true,
  },
  {
    id: 'workitem start',
    usage: 'workitem start REF',
    summary: 'start a session for an issue or PR (counts as addressed to this instance)',
    args: [{ key: 'ref', kind: 'word' }],
    flags: [],
    json: true,
    notes: [
      'REF is github:owner/repo#12, github:host/owner/repo#12 or an issue or pull request URL',
    ],
  },
  {
    id: 'workitem stop',
    usage: 'workitem stop REF',
    summary: "stop a work item's session",
    args: [{ key: 'ref', kind: 'word' }],
    flags: [],
    json: true,
  },
  {
    id: 'doctor',
    usage: 'doctor',
    summary: 'check the setup, one line per check with the remedy; exit 1 if any fails',
    args: [],
    flags: [],
    json: true,
    notes: [
      'Each line is `ok|warn|fail  ID  what was found — what to do`. Works without serve: it',
      "checks Node, tmux, the harness programs, the standing sessions' folders, the state root,",
      'the control socket, the Slack tokens and scopes, and the GitHub token and repositories.',
    ],
  },
  {
    id: 'init',
    usage: 'init [--yes]',
    summary: 'write .the-loop/config.yaml for the git repository you are in',
    args: [],
    flags: [{ name: 'yes', help: 'write it without asking (needed when there is no terminal)' }],
    json: false,
    notes: [
      'Takes github.repos from the origin remote and claude as the default harness when it is on',
      'PATH (else shell); never overwrites an existing config.',
    ],
  },
  {
    id: 'permissions',
    usage: 'permissions [allow|allow-always|deny ID] [--reason R]',
    summary: "the agents' open permission requests, and deciding one",
    args: [
      { key: 'verb', kind: 'word', optional: true },
      { key: 'id', kind: 'word', optional: true },
    ],
    flags: [{ name: 'reason', value: 'R', help: 'deny only: the reason the agent reads' }],
    json: true,
    notes: [
      'ID is a request id such as p-7kq2m4x9ab, as `the-loop permissions` lists it',
      'allow-always saves the rule Claude Code suggested (only when it suggested one)',
    ],
  },
  {
    id: 'dashboard',
    usage: 'dashboard [--open]',
    summary: 'print a one-time sign-in URL for the browser dashboard',
    args: [],
    flags: [{ name: 'open', help: "also open it in the desktop's browser" }],
    json: true,
    notes: ['The URL works once, for 2 minutes; it signs the browser in for 12 hours.'],
  },
];
