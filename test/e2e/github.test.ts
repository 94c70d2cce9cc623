import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../helpers/read-events.js';
import { agentPrompts, untagged } from '../helpers/agent-prompts.js';
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

const secret = 'webhook-secret-for-tests';
const issue = 12;
type Payload = ReturnType<typeof loadExamplePayload<'issue_comment'>>;

interface Instance {
  readonly name: string;
  readonly fixture: ServeFixture;
  readonly github: FakeGithub;
  readonly url: string;
}

const prompts = async (fixture: ServeFixture): Promise<string[]> =>
  (await agentPrompts(fixture.agentHome)).map(untagged);

describe('GitHub and instances end to end: signed deliveries to two instances', () => {
  let example: Payload;
  let instances: Instance[] = [];
  let nextCommentId = 5_000;

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

  const startInstance = async (
    name: string,
    scope: { mode: string; workItems?: string[] },
    extra: Record<string, unknown> = {},
  ): Promise<Instance> => {
    const github = await startFakeGithub();
    github.addIssue('octo', 'repo', { number: issue, title: 'Fix the build' });
    const port = await freePort();
    const fixture = await createServeFixture(
      () => ({
        instance: { name, scope: { workItems: [], ...scope } },
        github: {
          repos: [{ repo: 'octo/repo', path: 'work' }],
          authorizedUsers: ['octocat'],
          ...extra,
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

  /** Posts one signed comment delivery to every instance; resolves when each has judged it. */
  const comment = async (
    body: string,
    login = 'octocat',
    targets: Instance[] = instances,
  ): Promise<number> => {
    nextCommentId += 1;
    const id = nextCommentId;
    const payload = withComment(example, {
      body,
      login,
      repo: 'octo/repo',
      number: issue,
      commentId: id,
    });
    for (const target of targets) {
      target.github.addComment('octo', 'repo', issue, { body, user: { login }, id });
      const delivery = signDelivery(secret, payload, { event: 'issue_comment' });
      const answer = await postDelivery(target.url, delivery);
      expect(answer.status).toBe(202);
    }
    for (const target of targets) await handled(target, id);
    return id;
  };

  const handled = (target: Instance, commentId: number) =>
    eventually(
      async () =>
        (await readEvents(path.join(target.fixture.stateRoot, 'events.jsonl'))).find(
          (entry) =>
            (entry.event === 'github.handled' || entry.event === 'github.duplicate') &&
            entry['commentId'] === commentId,
        ),
      { timeoutMs: 20_000, what: `${target.name} to handle comment ${commentId}` },
    );

  const outcome = async (target: Instance, commentId: number) =>
    (await handled(target, commentId))['outcome'];

  const workItemRecords = async (target: Instance) =>
    readdir(path.join(target.fixture.stateRoot, 'workitems')).catch(() => [] as string[]);

  it('an addressed start reaches only the named instance; refusals leave no mark and no record', async () => {
    const a = await startInstance('laptop-a', { mode: 'open' });
    const b = await startInstance('laptop-b', { mode: 'open' });
    const id = await comment('Please have a look. the-loop start instance:laptop-b');
    expect(await outcome(b, id)).toBe('started');
    expect(await outcome(a, id)).toBe('refused');
    expect(a.github.calls).toEqual([]);
    expect(await workItemRecords(a)).toEqual([]);
    const refused = (await readEvents(path.join(a.fixture.stateRoot, 'events.jsonl'))).find(
      (entry) => entry.event === 'scope.refused',
    );
    expect(refused).toMatchObject({
      reason: 'addressed-elsewhere',
      instance: 'laptop-a',
      address: 'laptop-b',
      command: 'start',
    });
    expect(JSON.stringify(refused)).not.toContain('Please have a look');
    // B reacted, started the session, and announced it with the hidden marker.
    expect(b.github.reactionsOn(id)).toEqual(expect.arrayContaining(['eyes', 'rocket']));
    const announcement = b.github.calls.find(
      (call) => call.method === 'POST' && /issues\/12\/comments$/.test(call.path),
    );
    expect(String((announcement?.body as { body?: string }).body)).toContain(
      '<!-- the-loop:instance=laptop-b -->',
    );
    // The session got its boot directive naming the work item, and knows its instance.
    await eventually(async () =>
      (await prompts(b.fixture)).some((prompt) => prompt.includes('github:octo/repo#12')),
    );
    const argv = await readFile(path.join(b.fixture.agentHome, 'argv.jsonl'), 'utf8');
    expect(JSON.parse(argv.split('\n')[0] ?? '{}')).toMatchObject({
      env: { THE_LOOP_INSTANCE: 'laptop-b', THE_LOOP_SESSION: 'github:octo/repo#12' },
      hasSessionToken: true,
    });
    // serve started the tmux server, yet the server (and so every session) holds none of its secrets.
    const { execa } = await import('execa');
    const serverEnv = await execa('tmux', ['-L', b.fixture.socket, 'show-environment', '-g'], {
      reject: false,
    });
    expect(serverEnv.stdout).toContain('PATH=');
    expect(serverEnv.stdout).not.toContain('GITHUB_TOKEN');
    expect(serverEnv.stdout).not.toContain(secret);
    // The agent's answer (its Stop hook) becomes a comment on the issue, with the marker.
    await eventually(() =>
      b.github.calls.some((call) => {
        const body = String((call.body as { body?: string } | undefined)?.body);
        return (
          call.method === 'POST' &&
          body.startsWith('echo:') &&
          body.includes('<!-- the-loop:instance=laptop-b -->')
        );
      }),
    );

    // A plain comment from an authorized user is delivered to B's running session, framed.
    const plain = await comment('the failing test is in parser.ts');
    expect(await outcome(b, plain)).toBe('delivered');
    await eventually(async () =>
      (await prompts(b.fixture)).includes(
        '[github · @octocat on octo/repo#12]\n\nthe failing test is in parser.ts',
      ),
    );
    expect(await outcome(a, plain)).not.toBe('delivered');
    expect(a.github.calls).toEqual([]);
  });

  it('an unaddressed start reaches no addressed instance; malformed and ambiguous addresses are refused everywhere', async () => {
    const a = await startInstance('laptop-a', { mode: 'addressed' });
    const b = await startInstance('laptop-b', { mode: 'open' });
    const unaddressed = await comment('the-loop start');
    expect(await outcome(a, unaddressed)).toBe('refused');
    expect(await outcome(b, unaddressed)).toBe('started');
    await b.fixture.cli(['standing', 'list']);
    for (const body of [
      'the-loop start instance:LAPTOP',
      'the-loop start instance:laptop-a,instance:laptop-b',
    ]) {
      const id = await comment(body);
      expect(await outcome(a, id)).toBe('refused');
      expect(await outcome(b, id)).toBe('refused');
    }
    expect(a.github.calls).toEqual([]);
    const reasons = (await readEvents(path.join(b.fixture.stateRoot, 'events.jsonl')))
      .filter((entry) => entry.event === 'scope.refused')
      .map((entry) => entry['reason']);
    expect(reasons).toEqual(['malformed-address', 'ambiguous-address']);
  });

  it('an address to another instance is authoritative even for an item this instance manages', async () => {
    const a = await startInstance('laptop-a', {
      mode: 'open',
      workItems: ['https://github.com/octo/repo/issues/12'],
    });
    const id = await comment('the-loop start instance:laptop-b');
    expect(await outcome(a, id)).toBe('refused');
    expect(a.github.calls).toEqual([]);
  });

  it('locked + its own address is refused; locked + a declared item is accepted and its comments delivered', async () => {
    const locked = await startInstance('laptop-a', { mode: 'locked' });
    const declared = await startInstance('laptop-b', {
      mode: 'locked',
      workItems: ['github:octo/repo#12'],
    });
    const own = await comment('the-loop start instance:laptop-a', 'octocat', [locked]);
    expect(await outcome(locked, own)).toBe('refused');
    expect(locked.github.calls).toEqual([]);
    const start = await comment('the-loop start', 'octocat', [declared]);
    expect(await outcome(declared, start)).toBe('started');
    const plain = await comment('status please', 'octocat', [declared]);
    expect(await outcome(declared, plain)).toBe('delivered');
    // A CLI/API start counts as addressed: locked refuses an unmanaged item, with nothing recorded.
    const refused = await locked.fixture.cli(['workitem', 'start', 'github:octo/repo#7']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/instance\.scope\.workItems/);
    expect(await workItemRecords(locked)).toEqual([]);
    expect(locked.github.calls).toEqual([]);
  });

  it("an unauthorized author's address grants nothing, and bots are ignored", async () => {
    const a = await startInstance('laptop-a', { mode: 'addressed' });
    const id = await comment('the-loop start instance:laptop-a', 'mallory');
    expect(await outcome(a, id)).toBe('unauthorized');
    const bot = await comment('the-loop start instance:laptop-a', 'ci-helper[bot]');
    expect(await outcome(a, bot)).toBe('ignored-bot');
    expect(a.github.calls).toEqual([]);
    expect(await workItemRecords(a)).toEqual([]);
  });

  it('the same comment redelivered, or seen by the webhook and the poller, is handled once', async () => {
    const a = await startInstance(
      'laptop-a',
      { mode: 'open' },
      { poll: { enabled: true, intervalSeconds: 1 } },
    );
    nextCommentId += 1;
    const id = nextCommentId;
    const payload = withComment(example, {
      body: 'the-loop start',
      login: 'octocat',
      repo: 'octo/repo',
      number: issue,
      commentId: id,
    });
    a.github.addComment('octo', 'repo', issue, {
      body: 'the-loop start',
      user: { login: 'octocat' },
      id,
    });
    const delivery = signDelivery(secret, payload, { event: 'issue_comment' });
    expect((await postDelivery(a.url, delivery)).status).toBe(202);
    expect((await postDelivery(a.url, delivery)).status).toBe(202);
    await handled(a, id);
    // The poller (every second) sees the same comment too: it is handled or a duplicate, once.
    // `handled` returns at the first judgement, which may be the redelivery's duplicate while the
    // start the first copy asked for still runs: wait for that one's end as well.
    const events = await eventually(
      async () => {
        const all = await readEvents(path.join(a.fixture.stateRoot, 'events.jsonl'));
        const polled = all.some(
          (entry) =>
            (entry.event === 'github.handled' || entry.event === 'github.duplicate') &&
            entry['commentId'] === id &&
            entry['source'] === 'poll',
        );
        const done = all.some(
          (entry) => entry.event === 'github.handled' && entry['commentId'] === id,
        );
        return polled && done ? all : undefined;
      },
      { timeoutMs: 20_000, what: 'the comment to be handled and the poller to see it' },
    );
    expect(
      events.filter((entry) => entry.event === 'github.handled' && entry['commentId'] === id),
    ).toHaveLength(1);
    expect(
      events.filter((entry) => entry.event === 'github.duplicate' && entry['commentId'] === id)
        .length,
    ).toBeGreaterThanOrEqual(1);
    expect(
      a.github.calls.filter((call) => call.method === 'GET' && /issues\/comments/.test(call.path))
        .length,
    ).toBeGreaterThan(0);
  });

  it('rejects a bad signature with 401, bad JSON with 400 and an oversized body with 413', async () => {
    const a = await startInstance('laptop-a', { mode: 'open' });
    const payload = withComment(example, {
      body: 'hi',
      login: 'octocat',
      repo: 'octo/repo',
      number: issue,
      commentId: 1,
    });
    const forged = signDelivery('not-the-secret', payload, { event: 'issue_comment' });
    expect((await postDelivery(a.url, forged)).status).toBe(401);
    expect(
      (await postDelivery(a.url, signDelivery(secret, '{not json', { event: 'issue_comment' })))
        .status,
    ).toBe(400);
    const huge = signDelivery(secret, JSON.stringify({ pad: 'x'.repeat(6 * 1024 * 1024) }), {
      event: 'issue_comment',
    });
    expect((await postDelivery(a.url, huge)).status).toBe(413);
    expect(a.github.calls).toEqual([]);
  });
});
