/** One `/loop` subcommand: its words after the verb and one line on what it does. */
export interface SlashSubcommand {
  readonly verb:
    'create' | 'delete' | 'list' | 'start' | 'stop' | 'restart' | 'status' | 'instances' | 'help';
  readonly args: string;
  readonly summary: string;
}

/** Every subcommand, once: the parser, its usage errors and the help text all read this list. */
export const slashSubcommands: readonly SlashSubcommand[] = [
  {
    verb: 'create',
    args: '<name> [harness=<h>] [cwd=<dir>] [brief…]',
    summary: 'create a session and start it; its thread is announced in this channel',
  },
  { verb: 'delete', args: '<name>', summary: 'stop a created session and remove it' },
  { verb: 'list', args: '', summary: 'every session and its state' },
  { verb: 'start', args: '<name>', summary: 'start a stopped session; its conversation resumes' },
  { verb: 'stop', args: '<name>', summary: 'stop a session; it keeps its thread and conversation' },
  { verb: 'restart', args: '<name>', summary: 'stop a session and start it again' },
  { verb: 'status', args: '', summary: 'how the sessions are doing' },
  { verb: 'instances', args: '', summary: "the fleet's instances (docs/fleet.md)" },
  { verb: 'help', args: '', summary: 'this help' },
];
