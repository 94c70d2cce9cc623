import { describe, expect, it } from 'vitest';
import { notificationNotice } from '../../../src/replies/notification-notice.js';

const facts = { tmuxName: 'loop-standing-a', permissionRequestOpen: false };

describe('notificationNotice', () => {
  it.each<[string, Record<string, unknown>, boolean, boolean]>([
    [
      'a permission dialog nobody was asked about',
      { notification_type: 'permission_prompt' },
      false,
      true,
    ],
    [
      'a permission dialog the-loop already asked about',
      { notification_type: 'permission_prompt' },
      true,
      false,
    ],
    ['a question on screen', { notification_type: 'elicitation_dialog' }, false, true],
    [
      'a question on screen, a request open too',
      { notification_type: 'elicitation_dialog' },
      true,
      true,
    ],
    ['idle a minute after an answer', { notification_type: 'idle_prompt' }, false, false],
    ['a login that worked', { notification_type: 'auth_success' }, false, false],
    ['a type this the-loop does not know', { notification_type: 'something_new' }, false, false],
    ['no type at all', { message: 'Claude needs your permission' }, false, false],
  ])('%s → posted: %s', (_title, payload, open, posted) => {
    const notice = notificationNotice(
      { message: 'Claude needs your permission', ...payload },
      { ...facts, permissionRequestOpen: open },
    );
    expect(notice !== undefined).toBe(posted);
  });

  it("says what Claude Code said, and how to answer in the terminal (with the server's socket)", () => {
    const payload = {
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission',
    };
    expect(notificationNotice(payload, facts)).toBe(
      '⏳ The agent is waiting for you: Claude needs your permission\n' +
        "Answer here, or attach with `tmux attach -t '=loop-standing-a'`.",
    );
    expect(notificationNotice(payload, { ...facts, tmuxSocket: 'work' })).toContain(
      "`tmux -L work attach -t '=loop-standing-a'`",
    );
  });

  it('cuts a long message and fills in a missing one', () => {
    const long = notificationNotice(
      { notification_type: 'elicitation_dialog', message: 'x'.repeat(1000) },
      facts,
    );
    expect(long?.split('\n')[0]).toHaveLength('⏳ The agent is waiting for you: '.length + 300);
    expect(notificationNotice({ notification_type: 'elicitation_dialog' }, facts)).toContain(
      'waiting for you: it needs your input',
    );
  });
});
