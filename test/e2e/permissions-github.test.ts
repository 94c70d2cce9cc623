import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../helpers/read-events.js';
import { readEvents as readAgentEvents, type EventRecord } from '../fakes/fake-agent-records.js';
import { startFakeGithub, type FakeGithub } from '../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
} from '../fakes/fake-github/webhook-delivery.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

const secret = 'webhook-secret-for-tests';
const issue = 12;
type Answer = Extract<EventRecord, { event: 'permission_answer' }>;

interface Instance {
  readonly name: string;
  readonly fixture: ServeFixture;
  readonly github: FakeGithub;
  readonly url: string;
}

/**
 * Permission requests on a work item (docs/design.md §14) with two instances, each on its own fake GitHub
 * that receives the same signed deliveries: only the instance that issued a request (and is
 * addressed, when an address is given) answers it; the other leaves no mark at all.
 */
describe('permission requests from GitHub, two instances', () => {
  let example: ReturnType<typeof loadExamplePayload<'issue_comment'>>;
  let instances: Instance[] = [];
  let nextCommentId = 9_000;

  beforeAll(() => {
    example = loadExamplePayload('issue_comment', 'created');
  });
  afterEach(async () => {
    for (const instance of instances) {
      await instance.fixture.dispose();
      await instance.github.stop();
    }
    instances = [];
  });

  const startInstance = async (name: string, mode: string): Promise<Instance> => {
    const github = await startFakeGithub();
    github.addIssue('octo', 'repo', { number: issue, title: 'Fix the build' });
    const port = await freePort();
    const fixture = await createServeFixture(
      () => ({
        instance: { name, scope: { mode, workItems: [] } },
        github: {
          repos: [{ repo: 'octo/repo', path: 'work' }],
          authorizedUsers: ['octocat', 'hubot-fan'],
          approvers: ['octocat'],
        },
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
    const instance = { name, fixture, github, url: `http://127.0.0.1:${port}/github/webhook` };
    instances.push(instance);
    return instance;
  };

  const handled = (target: Instance, commentId: number) =>
    eventually(
      async () =>
        (await readEvents(path.join(target.fixture.stateRoot, 'events.jsonl'))).find(
          (entry) => entry.event === 'github.handled' && entry['commentId'] === commentId,
        ),
      { timeoutMs: 20_000, what: `${target.name} to handle comment ${commentId}` },
    );

  /** One comment, delivered signed to both instances; resolves with each one's outcome. */
  const comment = async (body: string, login = 'octocat'): Promise<Record<string, unknown>> => {
    nextCommentId += 1;
    const id = nextCommentId;
    const payload = withComment(example, {
      body,
      login,
      repo: 'octo/repo',
      number: issue,
      commentId: id,
    });
    for (const target of instances) {
      target.github.addComment('octo', 'repo', issue, { body, user: { login }, id });
      const answer = await postDelivery(
        target.url,
        signDelivery(secret, payload, { event: 'issue_comment' }),
      );
      expect(answer.status).toBe(202);
    }
    const outcomes: Record<string, unknown> = { id };
    for (const target of instances) outcomes[target.name] = (await handled(target, id))['outcome'];
    return outcomes;
  };

  const bodies = (target: Instance, method: string) =>
    target.github.calls
      .filter((call) => call.method === method)
      .map((call) => String((call.body as { body?: string } | undefined)?.body ?? ''));

  const requestComment = (target: Instance, count: number) =>
    eventually(
      async () => {
        const found = bodies(target, 'POST').filter((body) =>
          body.includes('Permission request `p-'),
        );
        return found.length >= count ? found[count - 1] : undefined;
      },
      { timeoutMs: 20_000, what: `permission comment ${count} on ${target.name}` },
    );

  const answers = (target: Instance, count: number) =>
    eventually(
      async () => {
        const found = (await readAgentEvents(target.fixture.agentHome)).filter(
          (event): event is Answer => event.event === 'permission_answer',
        );
        return found.length >= count ? found : undefined;
      },
      { timeoutMs: 20_000, what: `${count} answer(s) in ${target.name}'s agent` },
    );

  it('an addressed allow reaches only its instance; refusals and unknown ids leave no mark', async () => {
    const a = await startInstance('laptop-a', 'addressed');
    const b = await startInstance('laptop-b', 'open');
    const started = await comment('the-loop start instance:laptop-b');
    expect(started).toMatchObject({ 'laptop-a': 'refused', 'laptop-b': 'started' });
    await eventually(async () => bodies(b, 'POST').some((body) => body.startsWith('echo:')), {
      timeoutMs: 20_000,
      what: 'the boot prompt answered',
    });

    const asked = await comment(
      'run the tests\nFAKE:tool Bash npm test\nFAKE:tool Bash rm -rf dist',
    );
    expect(asked['laptop-b']).toBe('delivered');
    const first = await requestComment(b, 1);
    const id = /`(p-[a-z2-7]{10})`/.exec(first)?.[1] ?? '';
    expect(id).toMatch(/^p-[a-z2-7]{10}$/);
    // brief (the default): the tool's name only, never its input, on a possibly public issue.
    expect(first).toContain('**Bash**');
    expect(first).not.toContain('npm test');
    expect(first).toContain(`the-loop allow ${id} instance:laptop-b`);
    expect(first).toContain(`<!-- the-loop:permission=${id} -->`);
    expect(first).toContain('<!-- the-loop:instance=laptop-b -->');

    // Someone who is not an approver: nothing happens anywhere.
    const stranger = await comment(`the-loop allow ${id}`, 'hubot-fan');
    expect(stranger).toMatchObject({ 'laptop-a': 'unauthorized', 'laptop-b': 'unauthorized' });
    // Addressed to A, which did not issue it: A leaves no mark, B is not addressed.
    const wrong = await comment(`the-loop allow ${id} instance:laptop-a`);
    expect(wrong).toMatchObject({ 'laptop-a': 'permission-unknown', 'laptop-b': 'refused' });
    expect(b.github.reactionsOn(Number(wrong['id']))).toEqual([]);

    const right = await comment(`the-loop allow ${id} instance:laptop-b`);
    expect(right).toMatchObject({ 'laptop-a': 'refused', 'laptop-b': 'permission-decided' });
    expect(b.github.reactionsOn(Number(right['id']))).toEqual(['rocket']);
    expect((await answers(b, 1))[0]).toMatchObject({ behavior: 'allow', arg: 'npm test' });
    await eventually(
      async () =>
        bodies(b, 'PATCH').some(
          (body) => body.includes(id) && body.includes('Allowed by @octocat from GitHub'),
        ),
      { timeoutMs: 20_000, what: 'the request comment edited' },
    );

    // The second call: denied, unaddressed (A in addressed mode does not take it); the rest of
    // the comment is the reason Claude reads.
    const second = await requestComment(b, 2);
    const secondId = /`(p-[a-z2-7]{10})`/.exec(second)?.[1] ?? '';
    const denied = await comment(`the-loop deny ${secondId} keep dist, CI needs it`);
    expect(denied).toMatchObject({ 'laptop-a': 'refused', 'laptop-b': 'permission-decided' });
    expect((await answers(b, 2))[1]).toMatchObject({
      behavior: 'deny',
      message: 'Denied by @octocat from GitHub: keep dist, CI needs it',
    });
    // A never touched GitHub at all.
    expect(a.github.calls).toEqual([]);
  });
});
