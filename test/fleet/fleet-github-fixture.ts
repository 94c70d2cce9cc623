import { startFakeGithub, type FakeGithub } from '../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
  type SignedDelivery,
} from '../fakes/fake-github/webhook-delivery.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { loggedEvents } from './fleet-fixture.js';
import type { NatsServer } from './nats-server.js';

export const webhookSecret = 'webhook-secret-for-fleet-tests';
export const issue = 12;

/** One serve of the fleet with GitHub on, its own fake GitHub (same repository, issue and ids). */
export interface GithubMember {
  readonly name: string;
  readonly serve: ServeFixture;
  readonly github: FakeGithub;
  readonly webhookUrl: string;
}

export async function githubFleetMember(
  name: string,
  nats: NatsServer,
  github: { poll?: boolean } = {},
): Promise<GithubMember> {
  const fake = await startFakeGithub();
  fake.addIssue('octo', 'repo', { number: issue, title: 'Fix the build' });
  const port = await freePort();
  const serve = await createServeFixture(
    () => ({
      instance: { name, scope: { mode: 'addressed', workItems: [] } },
      github: {
        repos: [{ repo: 'octo/repo', path: 'work' }],
        authorizedUsers: ['octocat'],
        ...(github.poll ? { poll: { enabled: true, intervalSeconds: 1 } } : {}),
      },
      http: { host: '127.0.0.1', port },
      fleet: { nats: nats.url, retention: '1h' },
    }),
    {
      env: {
        GITHUB_TOKEN: fake.token,
        GITHUB_API_URL: fake.apiUrl,
        GITHUB_WEBHOOK_SECRET: webhookSecret,
      },
    },
  );
  return { name, serve, github: fake, webhookUrl: `http://127.0.0.1:${port}/github/webhook` };
}

let example: ReturnType<typeof loadExamplePayload<'issue_comment'>> | undefined;

/** A real signed `issue_comment.created` delivery, the comment also seeded in every fake GitHub. */
export function commentDelivery(
  members: readonly GithubMember[],
  body: string,
  commentId: number,
): SignedDelivery {
  example ??= loadExamplePayload('issue_comment', 'created');
  for (const member of members) {
    member.github.addComment('octo', 'repo', issue, {
      body,
      user: { login: 'octocat' },
      id: commentId,
    });
  }
  const payload = withComment(example, {
    body,
    login: 'octocat',
    repo: 'octo/repo',
    number: issue,
    commentId,
  });
  return signDelivery(webhookSecret, payload, { event: 'issue_comment' });
}

export async function deliverTo(member: GithubMember, delivery: SignedDelivery): Promise<void> {
  const answer = await postDelivery(member.webhookUrl, delivery);
  if (answer.status !== 202)
    throw new Error(`${member.name} answered ${answer.status}: ${answer.body}`);
}

/** The `github.handled` events of one comment on one member. */
export async function handledEvents(member: GithubMember, commentId: number) {
  return (await loggedEvents(member.serve, 'github.handled')).filter(
    (entry) => entry['commentId'] === commentId,
  );
}

/** Resolves with the outcome once `member` has judged the comment. */
export async function outcomeOn(member: GithubMember, commentId: number): Promise<unknown> {
  const found = await eventually(async () => (await handledEvents(member, commentId))[0], {
    timeoutMs: 30_000,
    what: `${member.name} to judge comment ${commentId}`,
  });
  return found['outcome'];
}
