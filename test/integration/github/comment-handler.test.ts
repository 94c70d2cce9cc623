import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoopError } from '../../../src/errors.js';
import { createCommentHandler } from '../../../src/github/create-comment-handler.js';
import { createGithubResponder } from '../../../src/github/create-github-responder.js';
import { runHandler } from '../../../src/intake/intake.js';
import { fromWebhookPayload } from '../../../src/github/from-webhook-payload.js';
import type { GithubComment } from '../../../src/github/github-comment.js';
import type { DeliveryResult } from '../../../src/delivery/delivery-request.js';
import type { WorkItemRef } from '../../../src/refs.js';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  withComment,
  type ExamplePayload,
} from '../../fakes/fake-github/webhook-delivery.js';
import { githubConfig } from '../../helpers/github-config.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { recordingDelivery, recordingEvents, recordingWorkItems } from './recording-fakes.js';
import { surfaceOctokit } from './surface-octokit.js';

const issue: WorkItemRef = { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 };
const pull: WorkItemRef = { ...issue, number: 40 };
const commentsOn = (number: number) => new RegExp(`^/repos/octo/repo/issues/${number}/comments$`);

interface Setup {
  readonly instance?: { name: string; scope: { mode: string; workItems?: string[] } };
  readonly running?: WorkItemRef[];
  readonly delivery?: { outcome?: DeliveryResult['outcome']; failure?: LoopError };
}

describe('createCommentHandler with the fake GitHub, a real Octokit and recording fakes', () => {
  let examples: {
    issue_comment: ExamplePayload<'issue_comment'>;
    pull_request_review_comment: ExamplePayload<'pull_request_review_comment'>;
    pull_request_review: ExamplePayload<'pull_request_review'>;
  };
  let github: FakeGithub;
  let nextDelivery = 0;

  beforeAll(() => {
    examples = {
      issue_comment: loadExamplePayload('issue_comment', 'created'),
      pull_request_review_comment: loadExamplePayload('pull_request_review_comment', 'created'),
      pull_request_review: loadExamplePayload('pull_request_review', 'submitted'),
    };
  });

  beforeEach(async () => {
    github = await startFakeGithub();
    github.addIssue('octo', 'repo', { number: 12, title: 'Fix the build' });
    github.addIssue('octo', 'repo', { number: 40, title: 'Faster parser', isPullRequest: true });
  });

  afterEach(async () => {
    await github.stop();
  });

  const setup = (options: Setup = {}) => {
    const instance = options.instance ?? { name: 'laptop-a', scope: { mode: 'open' } };
    const config = githubConfig({ instance });
    const log = captureLogger();
    const workItems = recordingWorkItems({ instance: instance.name, running: options.running });
    const delivery = recordingDelivery(options.delivery);
    const events = recordingEvents();
    const handler = createCommentHandler({
      config,
      actions: createGithubResponder({
        octokit: surfaceOctokit(github),
        instance: instance.name,
        logger: log.logger,
      }),
      workItems: workItems.service,
      delivery: delivery.core,
      events: events.sink,
    });
    // As the intake runs it: `done` is its entry's marking (done-rule.ts), the telling after it.
    const handle = (sent: GithubComment, done: () => Promise<void> = async () => undefined) =>
      runHandler(handler, sent, { done, logger: log.logger });
    return { handle, workItems, delivery, events, log };
  };

  /**
   * A comment as GitHub would hold it (seeded in the fake, so it can be reacted to) and as the
   * webhook ingress reads it from a delivery built on the official example payload.
   */
  const comment = (
    body: string,
    options: {
      login?: string;
      type?: 'User' | 'Bot';
      number?: number;
      event?: keyof typeof examples;
    } = {},
  ): GithubComment => {
    const login = options.login ?? 'octocat';
    const user = { login, ...(options.type ? { type: options.type } : {}) };
    const number = options.number ?? 12;
    const event = options.event ?? 'issue_comment';
    const id =
      event === 'issue_comment'
        ? github.addComment('octo', 'repo', number, { body, user }).id
        : event === 'pull_request_review_comment'
          ? github.addReviewComment('octo', 'repo', number, { body, user }).id
          : 777_000 + nextDelivery; // reviews are not comments the fake stores
    nextDelivery += 1;
    const payload = withComment(examples[event], {
      body,
      login,
      ...(options.type ? { userType: options.type } : {}),
      repo: 'octo/repo',
      number,
      commentId: id,
    });
    const parsed = fromWebhookPayload(event, payload, `delivery-${nextDelivery}`, Date.now());
    if (!parsed) throw new Error('the example payload must parse');
    return parsed;
  };

  const postedBodies = (number = 12) =>
    github
      .callsMatching('POST', commentsOn(number))
      .map((call) => String((call.body as { body?: unknown }).body));

  describe('refusals leave no mark', () => {
    it('a start addressed to another instance makes no GitHub call at all', async () => {
      const { handle, workItems, delivery, events, log } = setup();
      const refused = comment('Please have a look. the-loop start instance:laptop-b');
      github.reset();
      expect(await handle(refused)).toBe('refused');
      expect(github.calls).toEqual([]);
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
      expect(events.events).toEqual([
        {
          event: 'scope.refused',
          fields: {
            reason: 'addressed-elsewhere',
            instance: 'laptop-a',
            mode: 'open',
            address: 'laptop-b',
            command: 'start',
            actor: 'octocat',
            workItem: 'github:octo/repo#12',
            deliveryId: refused.deliveryId,
          },
        },
      ]);
      const logged = log.lines.filter((line) => line['event'] === 'scope.refused');
      expect(logged).toHaveLength(1);
      expect(JSON.stringify(log.lines)).not.toContain('Please have a look');
    });

    it.each<[string, Setup['instance'], string, string]>([
      [
        'a locked instance',
        { name: 'laptop-a', scope: { mode: 'locked' } },
        'the-loop start',
        'instance-locked',
      ],
      [
        'a locked instance addressed by name',
        { name: 'laptop-a', scope: { mode: 'locked' } },
        'the-loop start instance:laptop-a',
        'instance-locked',
      ],
      [
        'an addressed instance, unaddressed',
        { name: 'laptop-a', scope: { mode: 'addressed' } },
        'the-loop start',
        'unaddressed',
      ],
      ['a malformed address', undefined, 'the-loop start instance:LAPTOP', 'malformed-address'],
      [
        'an ambiguous address',
        undefined,
        'the-loop start instance:a,instance:b',
        'ambiguous-address',
      ],
      [
        'an unnamed instance addressed by any name',
        { name: '', scope: { mode: 'open' } },
        'the-loop start instance:laptop-a',
        'addressed-elsewhere',
      ],
    ])('%s: %s', async (_label, instance, body, reason) => {
      const { handle, workItems, events } = setup({ instance });
      const refused = comment(body);
      github.reset();
      expect(await handle(refused)).toBe('refused');
      expect(github.calls).toEqual([]);
      expect(workItems.calls).toEqual([]);
      expect(events.events.map((entry) => entry.fields['reason'])).toEqual([reason]);
    });

    it('an address to another instance wins even for a work item this instance runs', async () => {
      const { handle, workItems, delivery } = setup({ running: [issue] });
      const refused = comment('status? instance:laptop-b');
      github.reset();
      expect(await handle(refused)).toBe('refused');
      expect(github.calls).toEqual([]);
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
    });
  });

  describe('the-loop start', () => {
    it('reacts eyes, starts the session, reacts rocket and announces it with the hidden marker', async () => {
      const { handle, workItems } = setup();
      const start = comment('the-loop start');
      github.reset();
      expect(await handle(start)).toBe('started');
      expect(workItems.calls).toEqual([
        { verb: 'start', ref: 'github:octo/repo#12', actor: 'octocat' },
      ]);
      expect(github.reactionsOn(start.commentId)).toEqual(['eyes', 'rocket']);
      expect(github.writeCalls().map((call) => [call.method, call.path])).toEqual([
        ['POST', `/repos/octo/repo/issues/comments/${start.commentId}/reactions`],
        ['POST', `/repos/octo/repo/issues/comments/${start.commentId}/reactions`],
        ['POST', '/repos/octo/repo/issues/12/comments'],
      ]);
      const [announcement] = postedBodies();
      expect(announcement).toContain('instance `laptop-a`');
      expect(announcement).toContain('started a session for github:octo/repo#12');
      expect(announcement).toContain('`the-loop stop` ends it');
      expect(announcement?.endsWith('\n\n<!-- the-loop:instance=laptop-a -->')).toBe(true);
    });

    it('says resumed when the session comes back on its conversation', async () => {
      const { handle } = setup();
      await handle(comment('the-loop start'));
      await handle(comment('the-loop stop'));
      github.reset();
      expect(await handle(comment('the-loop start'))).toBe('started');
      expect(postedBodies()).toEqual([
        expect.stringContaining('resumed a session for github:octo/repo#12'),
      ]);
    });

    it('posts no second announcement for a session already running', async () => {
      const { handle } = setup({ running: [issue] });
      const start = comment('the-loop start');
      github.reset();
      expect(await handle(start)).toBe('started');
      expect(github.reactionsOn(start.commentId)).toEqual(['eyes', 'rocket']);
      expect(postedBodies()).toEqual([]);
    });

    it('names an unnamed instance as such, and marks the post with an empty name', async () => {
      const { handle } = setup({ instance: { name: '', scope: { mode: 'open' } } });
      await handle(comment('the-loop start'));
      const [announcement] = postedBodies();
      expect(announcement).toContain('(an unnamed instance)');
      expect(announcement?.endsWith('<!-- the-loop:instance= -->')).toBe(true);
    });

    it('is taken by a locked instance for a declared work item', async () => {
      const { handle, workItems } = setup({
        instance: {
          name: 'laptop-a',
          scope: { mode: 'locked', workItems: ['https://github.com/octo/repo/issues/12'] },
        },
      });
      expect(await handle(comment('the-loop start'))).toBe('started');
      expect(workItems.calls).toHaveLength(1);
    });

    it('is taken by an addressed instance when it names it, with a keyword set in any case', async () => {
      const { handle, workItems } = setup({
        instance: { name: 'laptop-a', scope: { mode: 'addressed' } },
      });
      expect(await handle(comment('**The-Loop START** instance:laptop-a'))).toBe('started');
      expect(workItems.calls).toEqual([
        { verb: 'start', ref: 'github:octo/repo#12', actor: 'octocat' },
      ]);
    });

    it('on a failed start leaves eyes, no rocket, and a comment naming the remedy', async () => {
      const { handle, workItems } = setup();
      workItems.failNextStart(
        new LoopError(
          'foreign_session',
          "tmux session `loop-gh-octo-repo-12` exists but is not this instance's",
        ),
      );
      const start = comment('the-loop start');
      github.reset();
      expect(await handle(start)).toBe('failed');
      expect(github.reactionsOn(start.commentId)).toEqual(['eyes']);
      const [warning] = postedBodies();
      expect(warning).toContain(
        "⚠️ tmux session `loop-gh-octo-repo-12` exists but is not this instance's",
      );
      expect(warning).toContain('<!-- the-loop:instance=laptop-a -->');
    });

    it('goes on when GitHub refuses a reaction, and says so in the log', async () => {
      const { handle, workItems, log } = setup();
      const start = comment('the-loop start');
      github.failNext(
        { method: 'POST', path: /\/reactions$/ },
        { status: 422, message: 'Validation Failed' },
      );
      expect(await handle(start)).toBe('started');
      expect(workItems.calls).toHaveLength(1);
      expect(github.reactionsOn(start.commentId)).toEqual(['rocket']);
      expect(log.lines.filter((line) => line['event'] === 'github.action_failed')).toEqual([
        expect.objectContaining({ action: 'react', code: 'github_failed' }),
      ]);
    });

    it('reacts on a review comment through the pull request review comment API', async () => {
      const { handle } = setup();
      const start = comment('the-loop start', { event: 'pull_request_review_comment', number: 40 });
      github.reset();
      expect(await handle(start)).toBe('started');
      expect(github.reactionsOn(start.commentId)).toEqual(['eyes', 'rocket']);
      expect(github.callsMatching('POST', /\/pulls\/comments\/\d+\/reactions$/)).toHaveLength(2);
      expect(postedBodies(40)).toHaveLength(1);
    });

    it('leaves a review without reactions (it has none), but still announces on the pull request', async () => {
      const { handle, workItems } = setup();
      const start = comment('the-loop start', { event: 'pull_request_review', number: 40 });
      github.reset();
      expect(await handle(start)).toBe('started');
      expect(workItems.calls).toEqual([
        { verb: 'start', ref: 'github:octo/repo#40', actor: 'octocat' },
      ]);
      expect(github.callsMatching('POST', /\/reactions$/)).toEqual([]);
      expect(postedBodies(40)).toHaveLength(1);
    });
  });

  describe('the-loop stop', () => {
    it('stops the session and reacts eyes then rocket, without a comment', async () => {
      const { handle, workItems } = setup({ running: [pull] });
      const stop = comment('the-loop stop', { number: 40 });
      github.reset();
      expect(await handle(stop)).toBe('stopped');
      expect(workItems.calls).toEqual([{ verb: 'stop', ref: 'github:octo/repo#40' }]);
      expect(github.reactionsOn(stop.commentId)).toEqual(['eyes', 'rocket']);
      expect(postedBodies(40)).toEqual([]);
    });
  });

  describe('a comment that asks for both', () => {
    it('is refused as ambiguous: a confused reaction and a comment, nothing started or stopped', async () => {
      const { handle, workItems, delivery } = setup({ running: [issue] });
      const both = comment('the-loop start\n\nor maybe the-loop stop?');
      github.reset();
      expect(await handle(both)).toBe('ambiguous-command');
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
      expect(github.reactionsOn(both.commentId)).toEqual(['confused']);
      const [answer] = postedBodies();
      expect(answer).toContain('asks for both `the-loop start` and `the-loop stop`');
      expect(answer).toContain('<!-- the-loop:instance=laptop-a -->');
    });
  });

  describe('keywords that do not count', () => {
    it.each([
      ['a fenced code block', 'To begin, type:\n\n```\nthe-loop start\n```'],
      ['a tilde fence', '~~~sh\nthe-loop start\n~~~'],
      ['an inline code span', 'run `the-loop start` to begin'],
      ['a quoted line', '> the-loop start\n\nwhy did this not run?'],
      ['an HTML comment', '<!-- the-loop start -->'],
    ])('inside %s, on an item with no session, do nothing at all', async (_label, body) => {
      const { handle, workItems, delivery } = setup();
      const quiet = comment(body);
      github.reset();
      expect(await handle(quiet)).toBe('not-running');
      expect(github.calls).toEqual([]);
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
    });

    it('inside a fence, on an item with a running session, is a plain message, not a stop', async () => {
      const { handle, workItems, delivery } = setup({ running: [issue] });
      const body = 'The docs say:\n```\nthe-loop stop\n```';
      expect(await handle(comment(body))).toBe('delivered');
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests.map((request) => request.text)).toEqual([body]);
    });
  });

  describe('plain comments', () => {
    it('on an item with no running session leave no mark', async () => {
      const { handle, delivery } = setup();
      github.reset();
      expect(await handle(comment('looks good to me'))).toBe('not-running');
      expect(github.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
    });

    it('on an item with a running session are delivered, framed by origin, then marked rocket', async () => {
      const { handle, delivery } = setup({ running: [issue] });
      const plain = comment('the failing test is in parser.ts');
      github.reset();
      expect(await handle(plain)).toBe('delivered');
      expect(delivery.requests).toEqual([
        {
          ref: 'github:octo/repo#12',
          text: 'the failing test is in parser.ts',
          origin: { surface: 'github', actor: 'octocat', workItem: 'octo/repo#12' },
          ids: { githubCommentId: String(plain.commentId), githubDeliveryId: plain.deliveryId },
          // The Enter marks the comment's inbox entry done (intake/done-rule.ts).
          onSubmitted: expect.any(Function),
          // Right before the Enter, the entry keeps the delivery's mark (delivery/submit-mark.ts).
          onSubmitting: expect.any(Function),
        },
      ]);
      expect(github.reactionsOn(plain.commentId)).toEqual(['eyes', 'rocket']);
    });

    it('are done in the inbox at the Enter, before a busy agent takes them', async () => {
      const { handle, delivery } = setup({ running: [issue] });
      const plain = comment('typed long before it is taken');
      const steps: string[] = [];
      // The core calls onSubmitted right after the Enter; the outcome may come hours later.
      delivery.core.deliver = async (request) => {
        steps.push('enter');
        await request.onSubmitted?.();
        steps.push('taken');
        return { outcome: 'delivered', deliveryId: 'busy-1' };
      };
      expect(
        await handle(plain, async () => {
          steps.push(`done:${github.reactionsOn(plain.commentId).join(',')}`);
        }),
      ).toBe('delivered');
      expect(steps[0]).toBe('enter');
      expect(steps[1]).toBe('done:eyes');
      expect(steps[2]).toBe('taken');
      expect(github.reactionsOn(plain.commentId)).toEqual(['eyes', 'rocket']);
    });

    it('are done in the inbox once delivered, before the rocket or a failure comment', async () => {
      const { handle } = setup({ running: [issue] });
      const plain = comment('done first');
      const seenAtDone: string[][] = [];
      const done = async () => {
        seenAtDone.push(github.reactionsOn(plain.commentId));
      };
      expect(await handle(plain, done)).toBe('delivered');
      // A crash after the rocket must not find the entry still open (it would be typed twice).
      expect(seenAtDone).toEqual([['eyes']]);
      expect(github.reactionsOn(plain.commentId)).toEqual(['eyes', 'rocket']);

      const failure = new LoopError('session_not_running', 'not running');
      const failing = setup({ running: [issue], delivery: { failure } });
      let commentsAtDone = -1;
      expect(
        await failing.handle(comment('done first too'), async () => {
          commentsAtDone = postedBodies().length;
        }),
      ).toBe('failed');
      expect(commentsAtDone).toBe(0);
      expect(postedBodies()).toHaveLength(1);
    });

    it('that the agent did not confirm keep only eyes', async () => {
      const { handle } = setup({ running: [issue], delivery: { outcome: 'unconfirmed' } });
      const plain = comment('hello?');
      expect(await handle(plain)).toBe('delivered');
      expect(github.reactionsOn(plain.commentId)).toEqual(['eyes']);
    });

    it('that cannot be delivered get a comment naming the remedy', async () => {
      const failure = new LoopError(
        'session_not_running',
        'the session for github:octo/repo#12 is not running',
      );
      const { handle } = setup({ running: [issue], delivery: { failure } });
      const plain = comment('hello?');
      expect(await handle(plain)).toBe('failed');
      expect(github.reactionsOn(plain.commentId)).toEqual(['eyes']);
      expect(postedBodies()).toEqual([expect.stringContaining(`⚠️ ${failure.message}`)]);
    });
  });

  describe('comments the-loop ignores', () => {
    it.each<[string, string, { login: string; type?: 'User' | 'Bot' }]>([
      ['a Bot account', 'the-loop start', { login: 'ci-helper', type: 'Bot' }],
      ['a [bot] login', 'the-loop start', { login: 'dependabot[bot]' }],
      [
        'a post carrying the hidden marker',
        'the-loop start\n\n<!-- the-loop:instance=laptop-b -->',
        { login: 'octocat' },
      ],
    ])('%s is ignored without a trace on GitHub', async (_label, body, author) => {
      const { handle, workItems, delivery, events } = setup({ running: [issue] });
      const ignored = comment(body, author);
      github.reset();
      expect(await handle(ignored)).toBe('ignored-bot');
      expect(github.calls).toEqual([]);
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
      expect(events.events).toEqual([]);
    });

    it("an unauthorized author's keyword and address grant nothing", async () => {
      const { handle, workItems, delivery, log } = setup({ running: [issue] });
      github.reset();
      expect(await handle(comment('the-loop stop instance:laptop-a', { login: 'mallory' }))).toBe(
        'unauthorized',
      );
      expect(await handle(comment('please rm -rf /', { login: 'mallory' }))).toBe('unauthorized');
      expect(github.calls).toEqual([]);
      expect(workItems.calls).toEqual([]);
      expect(delivery.requests).toEqual([]);
      expect(log.lines.filter((line) => line['event'] === 'github.unauthorized')).toHaveLength(2);
    });

    it('matches authorized logins without regard to case', async () => {
      const { handle, workItems } = setup();
      expect(await handle(comment('the-loop start', { login: 'OctoCat' }))).toBe('started');
      expect(workItems.calls).toEqual([
        { verb: 'start', ref: 'github:octo/repo#12', actor: 'OctoCat' },
      ]);
    });
  });
});
