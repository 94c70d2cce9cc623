import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../helpers/read-events.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { startFakeGithub, type FakeGithub } from '../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
} from '../fakes/fake-github/webhook-delivery.js';
import { within } from '../faults/support/special-files.js';

const secret = 'webhook-secret-for-probes';
const issue = 12;

/**
 * Issue 21.8, the GitHub path probed as an attacker would (docs/security.md records the results):
 * signed deliveries serve must not act on, a huge comment, and a delivery replayed after a crash.
 */
describe('the GitHub path, probed', () => {
  let github: FakeGithub;
  let fixture: ServeFixture;
  let url = '';
  let nextId = 7_000;
  const created = loadExamplePayload('issue_comment', 'created');
  const edited = loadExamplePayload('issue_comment', 'edited');

  const events = () => readEvents(path.join(fixture.stateRoot, 'events.jsonl'));
  const writes = () => github.writeCalls().length;
  const comment = (body: string, login = 'octocat', base: object = created) => {
    nextId += 1;
    github.addComment('octo', 'repo', issue, { body, user: { login }, id: nextId });
    const payload = withComment(base as typeof created, {
      body,
      login,
      repo: 'octo/repo',
      number: issue,
      commentId: nextId,
    });
    return { id: nextId, payload };
  };
  const handled = (id: number) =>
    eventually(
      async () =>
        (await events()).find(
          (entry) =>
            (entry.event === 'github.handled' || entry.event === 'github.duplicate') &&
            entry['commentId'] === id,
        ),
      { timeoutMs: 20_000, what: `comment ${id} to be judged` },
    );
  const statusAnswers = async () => {
    const status = await within(10_000, fixture.cli(['status', '--json']));
    expect(status === 'timedOut' ? 'timedOut' : status.exitCode).toBe(0);
  };

  beforeAll(async () => {
    github = await startFakeGithub();
    github.addIssue('octo', 'repo', { number: issue, title: 'Fix the build' });
    const port = await freePort();
    fixture = await createServeFixture(
      () => ({
        github: { repos: [{ repo: 'octo/repo', path: 'work' }], authorizedUsers: ['octocat'] },
        http: { host: '127.0.0.1', port },
      }),
      {
        env: {
          GITHUB_TOKEN: github.token,
          GITHUB_API_URL: github.apiUrl,
          GITHUB_WEBHOOK_SECRET: secret,
        },
      },
    );
    await fixture.start();
    url = `http://127.0.0.1:${port}/github/webhook`;
  }, 60_000);

  afterAll(async () => {
    await fixture?.dispose();
    await github?.stop();
  });

  it('signed deliveries of other events, edits, and strangers (a fork author) start nothing', async () => {
    const before = writes();
    for (const event of ['push', 'installation', 'issues', 'workflow_run', 'ping']) {
      const answer = await postDelivery(
        url,
        signDelivery(secret, { action: 'created', zen: 'x' }, { event }),
      );
      expect(answer.status, event).toBe(202);
      expect(JSON.parse(answer.body), event).toMatchObject({ accepted: false });
    }
    const edit = comment('the-loop start', 'octocat', edited);
    const editAnswer = await postDelivery(
      url,
      signDelivery(secret, edit.payload, { event: 'issue_comment' }),
    );
    expect(JSON.parse(editAnswer.body)).toMatchObject({ accepted: false });
    const stranger = comment('the-loop start', 'fork-author');
    await postDelivery(url, signDelivery(secret, stranger.payload, { event: 'issue_comment' }));
    expect(await handled(stranger.id)).toMatchObject({ outcome: 'unauthorized' });
    expect(writes()).toBe(before);
    await statusAnswers();
  }, 60_000);

  it('a huge comment (GitHub allows 65,536 characters) is judged and serve keeps answering', async () => {
    const huge = comment(`the-loop start\n${'x'.repeat(65_000)}`);
    const answer = await within(
      10_000,
      postDelivery(url, signDelivery(secret, huge.payload, { event: 'issue_comment' })),
    );
    expect(answer === 'timedOut' ? 'timedOut' : answer.status).toBe(202);
    await handled(huge.id);
    await statusAnswers();
  }, 60_000);

  it('a delivery replayed after serve was killed and restarted is not acted on twice', async () => {
    const first = comment('the-loop status');
    const delivery = signDelivery(secret, first.payload, { event: 'issue_comment' });
    expect((await postDelivery(url, delivery)).status).toBe(202);
    await handled(first.id);
    await eventually(() => writes() > 0, { timeoutMs: 15_000, what: 'the answer on GitHub' });
    const answered = writes();
    await fixture.kill('SIGKILL');
    await fixture.start();
    expect((await postDelivery(url, delivery)).status).toBe(202);
    await eventually(
      async () =>
        (await events()).some(
          (entry) => entry.event === 'github.duplicate' && entry['commentId'] === first.id,
        ),
      { timeoutMs: 20_000, what: 'the replay to be recognised as a duplicate' },
    );
    expect(writes()).toBe(answered);
  }, 90_000);
});
