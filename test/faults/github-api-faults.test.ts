import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import {
  startFakeGithub,
  type FakeGithub,
  type RecordedCall,
} from '../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
} from '../fakes/fake-github/webhook-delivery.js';
import { freePort } from '../helpers/free-port.js';
import { eventsOf, logged } from './support/serve-log.js';

const secret = 'webhook-secret-for-fault-tests';
const issue = 12;

describe('GitHub answering 502 and rate limits to reactions and comments', () => {
  let github: FakeGithub | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await github?.stop();
  });

  it('retries each failed write until it succeeds, and keeps serving', async () => {
    github = await startFakeGithub();
    const fake = github;
    fake.addIssue('octo', 'repo', { number: issue, title: 'Fix the build' });
    const port = await freePort();
    fixture = await createServeFixture(
      () => ({
        github: { repos: [{ repo: 'octo/repo', path: 'work' }], authorizedUsers: ['octocat'] },
        http: { host: '127.0.0.1', port },
      }),
      {
        env: {
          GITHUB_TOKEN: fake.token,
          GITHUB_API_URL: fake.apiUrl,
          GITHUB_WEBHOOK_SECRET: secret,
        },
      },
    );
    const serve = fixture;
    await serve.start();
    const example = loadExamplePayload('issue_comment', 'created');
    const url = `http://127.0.0.1:${port}/github/webhook`;
    const comment = async (id: number, body: string): Promise<unknown> => {
      fake.addComment('octo', 'repo', issue, { body, user: { login: 'octocat' }, id });
      const payload = withComment(example, {
        body,
        login: 'octocat',
        repo: 'octo/repo',
        number: issue,
        commentId: id,
      });
      const answer = await postDelivery(
        url,
        signDelivery(secret, payload, { event: 'issue_comment' }),
      );
      expect(answer.status).toBe(202);
      const handled = await eventually(
        async () =>
          (await eventsOf(serve)).find(
            (entry) => entry.event === 'github.handled' && entry['commentId'] === id,
          ),
        { timeoutMs: 30_000, what: `comment ${id} to be handled` },
      );
      return handled['outcome'];
    };
    const reactions = /\/reactions$/;
    const comments = /\/issues\/12\/comments$/;

    fake.failNext({ method: 'POST', path: reactions }, { status: 502 });
    fake.failNext(
      { method: 'POST', path: reactions },
      { secondaryRateLimit: true, retryAfterSeconds: 1 },
    );
    fake.failNext({ method: 'POST', path: comments }, { rateLimit: true, resetInSeconds: 1 });
    fake.failNext({ method: 'POST', path: comments }, { status: 502 });
    expect(await comment(7001, 'the-loop start')).toBe('started');
    await eventually(() => fake.reactionsOn(7001).includes('rocket'), { timeoutMs: 15_000 });
    expect(fake.reactionsOn(7001)).toEqual(['eyes', 'rocket']);

    fake.failNext({ method: 'POST', path: reactions }, { rateLimit: true, resetInSeconds: 1 });
    fake.failNext({ method: 'POST', path: comments }, { status: 502 });
    expect(await comment(7002, 'how is it going?')).toBe('delivered');
    await eventually(() => fake.reactionsOn(7002).includes('rocket'), { timeoutMs: 15_000 });
    // The agent's answer to that comment comes back as a comment of ours.
    await eventually(
      () =>
        fake
          .callsMatching('POST', comments)
          .filter((call) => call.status === 201)
          .some((call) => JSON.stringify(call.body).includes('@octocat')),
      { timeoutMs: 20_000, what: "the agent's answer on the issue" },
    );

    const failed = fake.writeCalls().filter((call) => call.status >= 400);
    expect(failed.map((call) => call.status).sort()).toEqual([403, 403, 403, 502, 502, 502]);
    const later = (call: RecordedCall) => (other: RecordedCall) =>
      other.at >= call.at && other.path === call.path && other.status < 300;
    for (const call of failed) {
      expect(fake.writeCalls().some(later(call)), `${call.method} ${call.path} retried`).toBe(true);
    }
    const statuses = logged(serve, 'github.retry').map((entry) => entry['status']);
    expect(statuses.sort()).toEqual([403, 403, 403, 502, 502, 502]);
    expect(logged(serve, 'github.action_failed')).toEqual([]);
    expect((await serve.cli(['status'])).exitCode).toBe(0);
  }, 60_000);
});
