import { describe, expect, it } from 'vitest';
import { LoopError } from '../../../src/errors.js';
import { slashUsage } from '../../../src/slack/commands/parse-slash-command.js';
import { createSlashHandler, type SlashRequest } from '../../../src/slack/create-slash-handler.js';
import { formatSessionLine } from '../../../src/slack/text/format-session-line.js';
import { recordingStanding, standingView } from '../../helpers/recording-standing.js';
import { slackConfig } from '../../helpers/slack-config.js';

const request = (text: string, userId = 'U0DANA'): SlashRequest => ({
  text,
  userId,
  channelId: 'C0DEV',
});

function slash(sessions = [standingView('sup'), standingView('docs', { status: 'stopped' })]) {
  const standing = recordingStanding(sessions);
  return {
    standing,
    handle: createSlashHandler({ config: slackConfig(), standing: standing.service }),
  };
}

describe('createSlashHandler', () => {
  it('refuses someone not authorized, naming their id and the key, and touches nothing', async () => {
    const { standing, handle } = slash();
    const answer = await handle(request('list', 'U0EVE'));
    expect(answer.immediate).toBe(
      'You are not authorized to use `/loop`. An operator can add your Slack id `U0EVE` to `slack.authorizedUsers`.',
    );
    expect(answer.later).toBeUndefined();
    expect(standing.calls).toEqual([]);
  });

  it.each([
    ['', 'help'],
    ['help', 'help'],
  ])('answers %j with the usage', async (text) => {
    const { handle } = slash();
    expect(await handle(request(text))).toEqual({ immediate: slashUsage('/loop') });
  });

  it('answers bad input with what was wrong and the usage, never a stack trace', async () => {
    const { standing, handle } = slash();
    const answer = await handle(request('frobnicate sup'));
    expect(answer.immediate).toMatch(/^`frobnicate` is not a subcommand of `\/loop`/);
    expect(answer.immediate.endsWith(`\n\n${slashUsage('/loop')}`)).toBe(true);
    expect(standing.calls).toEqual([]);
  });

  it.each(['list', 'status'])('%s shows one line per session', async (verb) => {
    const sessions = [standingView('sup'), standingView('docs', { status: 'stopped' })];
    const { handle } = slash(sessions);
    const answer = await handle(request(verb));
    expect(answer).toEqual({
      immediate: sessions.map((view) => formatSessionLine(view)).join('\n'),
    });
  });

  it('says how to create one when there are no sessions', async () => {
    const { handle } = slash([]);
    expect((await handle(request('list'))).immediate).toBe(
      'No standing sessions yet. Try `/loop create <name>`.',
    );
  });

  it('create answers at once, then creates in this channel with the options and the decoded brief', async () => {
    const { standing, handle } = slash();
    const answer = await handle(request('create fresh harness=shell cwd=/work/app fix a &lt; b'));
    expect(answer.immediate).toBe('Creating `fresh`…');
    expect(await answer.later).toBe(
      '✅ Created `fresh` (started); its thread is announced in this channel.',
    );
    expect(standing.calls).toEqual([
      {
        verb: 'create',
        args: [
          {
            name: 'fresh',
            slackChannel: 'C0DEV',
            harness: 'shell',
            cwd: '/work/app',
            prompt: 'fix a < b',
          },
        ],
      },
    ]);
  });

  it('delete follows up once the session is gone', async () => {
    const { standing, handle } = slash();
    const answer = await handle(request('delete sup'));
    expect(answer.immediate).toBe('Deleting `sup`…');
    expect(await answer.later).toBe('🗑️ Deleted `sup`.');
    expect(standing.calls).toEqual([{ verb: 'delete', args: ['sup'] }]);
  });

  it.each([
    ['start', 'started'],
    ['stop', 'stopped'],
    ['restart', 'resumed'],
  ])('%s runs that verb and follows up with its outcome', async (verb, outcome) => {
    const { standing, handle } = slash();
    const answer = await handle(request(`${verb} sup`));
    expect(answer.immediate).toBe(`Running \`${verb}\` on \`sup\`…`);
    expect(await answer.later).toBe(`✅ \`sup\`: ${outcome}.`);
    expect(standing.calls).toEqual([{ verb, args: ['sup'] }]);
  });

  it('turns a failed follow-up into a warning with the remedy, never a rejection', async () => {
    const { standing, handle } = slash();
    standing.failNext(
      'start',
      new LoopError('spawn_failed', 'tmux could not start `sup`: check `tmux -V`.'),
    );
    const answer = await handle(request('start sup'));
    await expect(answer.later).resolves.toBe('⚠️ tmux could not start `sup`: check `tmux -V`.');
  });
});
