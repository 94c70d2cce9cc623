import type { CommandHandler } from '../command-context.js';
import { formatColumns } from '../format.js';
import { LoopError } from '../../errors.js';

const verbs = new Set(['allow', 'allow-always', 'deny']);

/**
 * `the-loop permissions [--json]` lists the open requests (a bare array in JSON, docs/design.md §17);
 * `the-loop permissions allow|allow-always|deny ID [--reason R]` decides one, as `$USER` from the CLI.
 */
export const runPermissions: CommandHandler = async (context) => {
  const verb = context.args['verb'];
  const reason = context.stringFlag('reason');
  if (verb === undefined) {
    if (reason !== undefined) return context.usageError('--reason goes with `deny ID`');
    const open = await (await context.loop()).permissions.list();
    if (context.json) context.printJson(open);
    else if (open.length === 0) context.print('no open permission requests');
    else {
      context.print(
        formatColumns([
          ['ID', 'SESSION', 'TOOL', 'EXPIRES', 'ALWAYS', 'SUMMARY'],
          ...open.map((request) => [
            request.id,
            request.ref,
            request.tool,
            request.expiresAt,
            request.canAlways ? 'yes' : 'no',
            (request.summary.split('\n')[0] ?? '').slice(0, 80),
          ]),
        ]),
      );
    }
    return 0;
  }
  if (!verbs.has(verb)) {
    return context.usageError(`unknown verb \`${verb}\`: use allow, allow-always or deny`);
  }
  const session = sessionVariable(context.io.env);
  if (session !== undefined) {
    // docs/design.md §18: agents never decide permissions. A speed bump, not a wall: an agent
    // whose shell runs unchecked as the user can unset this (docs/security.md says so).
    throw new LoopError(
      'forbidden',
      `\`permissions ${verb}\` refuses to run inside a session (${session} is set): an agent ` +
        'never decides its own permission requests; a person answers in Slack, on GitHub, or ' +
        'from a terminal outside the sessions',
    );
  }
  const id = context.args['id'];
  if (id === undefined) return context.usageError(`\`permissions ${verb}\` needs the request ID`);
  if (reason !== undefined && verb !== 'deny') {
    return context.usageError('--reason goes with `deny ID`');
  }
  const { permissions } = await context.loop();
  const actor = context.io.env['USER'] || 'operator';
  const result =
    verb === 'deny'
      ? await permissions.deny(id, { actor, ...(reason === undefined ? {} : { reason }) })
      : await (verb === 'allow' ? permissions.allow : permissions.allowAlways)(id, { actor });
  if (context.json) context.printJson(result);
  else context.print(`${result.id}: ${result.outcome}`);
  return 0;
};

/** The session variable that says this CLI runs inside a session of the-loop, if one is set. */
function sessionVariable(env: NodeJS.ProcessEnv): string | undefined {
  return ['THE_LOOP_SESSION_TOKEN', 'THE_LOOP_SESSION'].find((name) => (env[name] ?? '') !== '');
}
