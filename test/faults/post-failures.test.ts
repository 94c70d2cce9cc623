import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import { startFakeGithub, type FakeGithub } from '../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
} from '../fakes/fake-github/webhook-delivery.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { freePort } from '../helpers/free-port.js';
import { eventsOf } from './support/serve-log.js';
import { createAnnounced, slackOperator, startSlackServe } from './support/slack-serve.js';

const webhookSecret = 'webhook-secret-for-post-faults';
const issue = 21;

/** `the-loop post TEXT` as the session with this record would run it from inside its pane. */
async function postAs(serve: ServeFixture, recordFile: string, text: string) {
  const record = JSON.parse(await readFile(recordFile, 'utf8')) as { sessionToken?: string };
  expect(record.sessionToken).toBeTypeOf('string');
  return serve.cli(['post', text], {
    env: {
      THE_LOOP_SESSION_TOKEN: String(record.sessionToken),
      THE_LOOP_SOCKET: path.join(serve.stateRoot, 'control.sock'),
    },
  });
}

/** The agent answers its boot prompt by itself; that post must be over before failures are planned. */
async function bootAnswerPosted(serve: ServeFixture, ref: string): Promise<void> {
  await eventually(
    async () =>
      (await eventsOf(serve)).some(
        (entry) => entry.event === 'agent.posted' && entry['ref'] === ref,
      ),
    { timeoutMs: 20_000, what: `the boot answer of ${ref}` },
  );
}

describe('`the-loop post` when Slack or GitHub refuses the reply', () => {
  let slack: FakeSlack | undefined;
  let github: FakeGithub | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
    await github?.stop();
    fixture = undefined;
    github = undefined;
  });

  it('exits 1 and names the failure when the one target failed (invalid_auth, then retries run out)', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fake = slack;
    fixture = await startSlackServe(fake);
    const serve = fixture;
    await createAnnounced(serve, fake, 'poster');
    await bootAnswerPosted(serve, 'standing:poster');
    const record = path.join(serve.stateRoot, 'standing', 'poster.json');

    fake.failNext('chat.postMessage', { okFalse: 'invalid_auth' });
    const refused = await postAs(serve, record, 'nobody will read this');
    expect(refused.exitCode, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/slack/);
    expect(refused.stderr).toMatch(/invalid_auth/);
    expect(refused.stdout).not.toMatch(/posted to/);

    // Six attempts, none answered: a 500 (retried after 1 s of backoff), then 429s whose
    // Retry-After is 1 s. The retries run out in about 5 s; five 500s would take 31 s of backoff
    // (1 + 2 + 4 + 8 + 16), which slackRetryDelay's table test already pins.
    fake.failNext('chat.postMessage', { status: 500 });
    fake.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, 5);
    const down = await postAs(serve, record, 'nor this');
    expect(down.exitCode, down.stderr).toBe(1);
    expect(down.stderr).toMatch(/slack/);

    const fine = await postAs(serve, record, 'but this arrives');
    expect(fine.exitCode, fine.stderr).toBe(0);
    expect(fine.stdout).toMatch(/posted to slack/);
  }, 60_000);

  it('exits 1 on a partial success, naming the target that failed and the one that got it', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fakeSlack = slack;
    github = await startFakeGithub();
    const fakeGithub = github;
    fakeGithub.addIssue('octo', 'repo', { number: issue, title: 'Post from both places' });
    const port = await freePort();
    fixture = await startSlackServe(fakeSlack, {
      port,
      extra: () => ({
        github: { repos: [{ repo: 'octo/repo', path: 'work' }], authorizedUsers: ['octocat'] },
      }),
      env: {
        GITHUB_TOKEN: fakeGithub.token,
        GITHUB_API_URL: fakeGithub.apiUrl,
        GITHUB_WEBHOOK_SECRET: webhookSecret,
      },
    });
    const serve = fixture;
    const body = 'the-loop start';
    fakeGithub.addComment('octo', 'repo', issue, { body, user: { login: 'octocat' }, id: 9101 });
    const payload = withComment(loadExamplePayload('issue_comment', 'created'), {
      body,
      login: 'octocat',
      repo: 'octo/repo',
      number: issue,
      commentId: 9101,
    });
    const answer = await postDelivery(
      `http://127.0.0.1:${port}/github/webhook`,
      signDelivery(webhookSecret, payload, { event: 'issue_comment' }),
    );
    expect(answer.status).toBe(202);
    const ref = 'github:octo/repo#21';
    await eventually(
      async () => (await eventsOf(serve)).some((entry) => entry.event === 'workitem.announced'),
      { timeoutMs: 20_000, what: 'the work item to be announced in Slack' },
    );
    await bootAnswerPosted(serve, ref);
    const dir = path.join(serve.stateRoot, 'workitems');
    const [recordName] = await readdir(dir);
    const record = path.join(dir, String(recordName));
    // Both places must serve the ref, or a partial success cannot happen.
    const both = await postAs(serve, record, 'to both');
    expect(both.exitCode, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/slack/);
    expect(both.stdout).toMatch(/github/);

    fakeSlack.failNext('chat.postMessage', { okFalse: 'invalid_auth' });
    const slackFailed = await postAs(serve, record, 'only GitHub gets this');
    expect(slackFailed.exitCode, slackFailed.stderr).toBe(1);
    expect(slackFailed.stdout).toMatch(/posted to github/);
    expect(slackFailed.stderr).toMatch(/slack/);
    expect(slackFailed.stderr).toMatch(/invalid_auth/);
    expect(slackFailed.stderr).not.toMatch(/github/);

    fakeGithub.failNext(
      { method: 'POST', path: /\/issues\/21\/comments$/ },
      { status: 401, message: 'Bad credentials' },
    );
    const githubFailed = await postAs(serve, record, 'only Slack gets this');
    expect(githubFailed.exitCode, githubFailed.stderr).toBe(1);
    expect(githubFailed.stdout).toMatch(/posted to slack/);
    expect(githubFailed.stderr).toMatch(/github/);
    expect(githubFailed.stderr).not.toMatch(/slack/);
  }, 90_000);
});
