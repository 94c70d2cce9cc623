import { createApiClient, unwrap } from '../../api/create-api-client.js';
import type { ReplyFailure, ReplyTarget } from '../../replies/reply-router.js';
import { chooseTextSource, readInputText, readPostFiles, sessionEnv } from '../input.js';
import type { CommandHandler } from '../command-context.js';
import { isInteractive } from '../cli-io.js';

interface PostAnswer {
  readonly targets: readonly ReplyTarget[];
  /** Missing from a serve older than this CLI, which did not report failures. */
  readonly failed?: readonly ReplyFailure[];
}

/**
 * `the-loop post [TEXT | -] [--file F]…`, run by an agent inside its session. Each `--file`
 * attaches a file; with files and no TEXT the post is the files alone. The socket and the
 * token come from the session's environment, not from a config file: the agent may be working in
 * any directory, and the token is what lets it speak only as itself.
 */
export const runPost: CommandHandler = async (context) => {
  const session = sessionEnv(context.io.env);
  if (session === undefined) {
    return context.usageError(
      'THE_LOOP_SESSION_TOKEN and THE_LOOP_SOCKET are not set: run this from inside a session ' +
        'started by the-loop',
    );
  }
  // --file attaches (docs/design.md §17): read here, sent as bytes; serve opens no path (§18).
  const files = await readPostFiles(context.io.cwd, context.stringFlags('file'));
  const given = context.args['text'];
  const source =
    files.length > 0 && given === undefined
      ? ({ kind: 'literal', text: '' } as const)
      : chooseTextSource({ text: given, stdinIsTerminal: isInteractive(context.io.stdin) });
  if (source.kind === 'usage-error') return context.usageError(source.message);
  const text = await readInputText(source, context.io);
  const client = createApiClient({ socketPath: session.socketPath });
  const answer = unwrap(
    await client.request<PostAnswer>(
      'POST',
      '/api/v1/post',
      files.length > 0 ? { text, files } : { text },
      { 'X-The-Loop-Session-Token': session.token },
    ),
  );
  // Exit 1 when any place that serves the session did not take the words (docs/design.md §17 `post`):
  // an agent that believes it answered while nobody heard it is worse than one that knows.
  const failed = answer.failed ?? [];
  if (context.json) {
    context.printJson(answer);
    return failed.length > 0 ? 1 : 0;
  }
  if (answer.targets.length > 0) {
    const places = answer.targets.map((target) => `${target.surface} ${target.location}`);
    context.print(`posted to ${places.join(', ')}`);
  } else if (failed.length === 0) {
    context.io.stderr.write(
      'accepted, but no Slack thread or GitHub issue is connected to this session, so nobody ' +
        'will see it\n',
    );
  }
  for (const failure of failed) {
    context.io.stderr.write(`error: not posted to ${failure.surface}: ${failure.reason}\n`);
  }
  if (failed.length > 0 && answer.targets.length === 0) {
    context.io.stderr.write('nobody got this message: post it again once the cause is fixed\n');
  }
  return failed.length > 0 ? 1 : 0;
};
