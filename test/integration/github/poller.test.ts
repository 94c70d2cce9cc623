import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPoller } from '../../../src/github/create-poller.js';
import type { GithubComment } from '../../../src/github/github-comment.js';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import { githubConfig } from '../../helpers/github-config.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { surfaceOctokit } from './surface-octokit.js';

const octocat = { login: 'octocat' };
const listPath = /^\/repos\/octo\/repo\/issues\/comments$/;

describe('createPoller against the fake GitHub with a real Octokit', () => {
  let clock: number;
  let github: FakeGithub;
  let root: string;
  let accepted: GithubComment[];

  beforeEach(async () => {
    clock = Date.parse('2024-05-01T10:00:00.000Z');
    github = await startFakeGithub({ now: () => clock });
    github.addIssue('octo', 'repo', { number: 12, title: 'Fix the build' });
    github.addIssue('octo', 'repo', { number: 40, title: 'Faster parser', isPullRequest: true });
    root = await mkdtemp(path.join(tmpdir(), 'the-loop-poller-'));
    accepted = [];
  });

  afterEach(async () => {
    await github.stop();
    await rm(root, { recursive: true, force: true });
  });

  const at = (iso: string) => {
    clock = Date.parse(iso);
  };

  const poller = (
    options: {
      dir?: string;
      repos?: string[];
      skewMs?: number;
      log?: ReturnType<typeof captureLogger>;
      lease?: (repo: string) => Promise<'held' | 'taken' | 'elsewhere'>;
    } = {},
  ) =>
    createPoller({
      config: githubConfig({
        github: {
          repos: (options.repos ?? ['octo/repo']).map((repo) => ({ repo, path: 'repo' })),
          authorizedUsers: ['octocat'],
          poll: { enabled: true, intervalSeconds: 30 },
        },
      }),
      octokit: surfaceOctokit(github),
      host: 'github.com',
      cursorDir: options.dir ?? path.join(root, 'github', 'poll'),
      accept: async (comment) => void accepted.push(comment),
      logger: (options.log ?? captureLogger()).logger,
      now: () => clock + (options.skewMs ?? 0),
      ...(options.lease ? { lease: options.lease } : {}),
    });

  const cursor = async (dir = path.join(root, 'github', 'poll')) =>
    JSON.parse(await readFile(path.join(dir, 'octo-repo.json'), 'utf8')) as {
      since: string;
      etag?: string;
    };

  const bodies = () => accepted.map((comment) => comment.body);

  it('on its first run takes only comments made from then on, and keeps its cursor on disk', async () => {
    github.addComment('octo', 'repo', 12, {
      body: 'the-loop start',
      user: octocat,
      createdAt: '2024-05-01T09:00:00Z',
    });
    const first = poller();
    await first.pollOnce();
    expect(accepted).toEqual([]);
    expect((await readdir(path.join(root, 'github', 'poll'))).sort()).toEqual([
      'octo-repo.json',
      'octo-repo.review-comments.json',
    ]);
    expect(Date.parse((await cursor()).since)).toBeLessThanOrEqual(clock);

    at('2024-05-01T10:00:30.000Z');
    const later = github.addComment('octo', 'repo', 12, {
      body: 'please look at parser.ts',
      user: octocat,
    });
    await first.pollOnce();
    expect(accepted).toEqual([
      {
        source: 'poll',
        deliveryId: '',
        kind: 'issue_comment',
        commentId: later.id,
        body: 'please look at parser.ts',
        author: { login: 'octocat', type: 'User' },
        item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 },
        receivedAt: clock,
      },
    ]);
  });

  it('accepts a later comment once, however often it polls', async () => {
    const watcher = poller();
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    github.addComment('octo', 'repo', 40, { body: 'the-loop start', user: octocat });
    for (const time of ['10:01:00', '10:01:30', '10:02:00']) {
      await watcher.pollOnce();
      at(`2024-05-01T${time}.000Z`);
    }
    expect(bodies()).toEqual(['the-loop start']);
    expect(accepted[0]?.item.number).toBe(40);
  });

  it('takes review comments on the diff of a pull request too, each once, with their own cursor', async () => {
    const watcher = poller();
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    const review = github.addReviewComment('octo', 'repo', 40, {
      body: 'rename this variable',
      user: octocat,
    });
    github.addComment('octo', 'repo', 12, { body: 'and on the issue', user: octocat });
    for (const time of ['10:01:00', '10:01:30']) {
      await watcher.pollOnce();
      at(`2024-05-01T${time}.000Z`);
    }
    expect(accepted.map((comment) => [comment.kind, comment.item.number, comment.body])).toEqual([
      ['issue_comment', 12, 'and on the issue'],
      ['review_comment', 40, 'rename this variable'],
    ]);
    expect(accepted[1]?.commentId).toBe(review.id);
    expect(github.callsMatching('GET', /^\/repos\/octo\/repo\/pulls\/comments$/)).not.toHaveLength(
      0,
    );
  });

  it('does not take an edit of an older comment for a new comment', async () => {
    const old = github.addComment('octo', 'repo', 12, {
      body: 'typo',
      user: octocat,
      createdAt: '2024-05-01T09:30:00Z',
    });
    const watcher = poller();
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    await surfaceOctokit(github).issues.updateComment({
      owner: 'octo',
      repo: 'repo',
      comment_id: old.id,
      body: 'the-loop start',
    });
    github.reset();
    await watcher.pollOnce();
    // GitHub listed the edited comment (it was updated since the cursor), and it was passed over.
    expect(github.callsMatching('GET', listPath).map((call) => call.status)).toEqual([200]);
    expect(accepted).toEqual([]);
  });

  it('keeps its cursor across a restart: a comment made while it was down is taken', async () => {
    const dir = path.join(root, 'kept');
    await poller({ dir }).pollOnce();
    at('2024-05-01T10:05:00.000Z');
    github.addComment('octo', 'repo', 12, { body: 'made while down', user: octocat });
    at('2024-05-01T10:10:00.000Z');
    await poller({ dir }).pollOnce();
    expect(bodies()).toEqual(['made while down']);

    // A poller with no cursor starts from now and would have missed it.
    accepted = [];
    await poller({ dir: path.join(root, 'fresh') }).pollOnce();
    expect(accepted).toEqual([]);
  });

  it('asks with If-None-Match, and a 304 leaves the cursor as it was', async () => {
    const watcher = poller();
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    github.addComment('octo', 'repo', 12, { body: 'hello', user: octocat });
    await watcher.pollOnce();
    const before = await cursor();
    expect(before.etag).toEqual(expect.any(String));
    at('2024-05-01T10:01:00.000Z');
    github.reset();
    await watcher.pollOnce();
    expect(github.callsMatching('GET', listPath).map((call) => call.status)).toEqual([304]);
    expect(await cursor()).toEqual(before);
    expect(bodies()).toEqual(['hello']);
  });

  it('retries a 502 and then takes the comment', async () => {
    const log = captureLogger();
    const watcher = poller({ log });
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    github.addComment('octo', 'repo', 12, { body: 'after an outage', user: octocat });
    github.reset();
    github.failNext({ method: 'GET', path: listPath }, { status: 502 });
    await watcher.pollOnce(); // callGithub's real backoff: one second
    expect(github.callsMatching('GET', listPath).map((call) => call.status)).toEqual([502, 200]);
    expect(bodies()).toEqual(['after an outage']);
    expect(log.lines.filter((line) => line['event'] === 'github.retry')).toHaveLength(1);
  });

  it('goes on with the other repositories when one cannot be listed', async () => {
    const log = captureLogger();
    const watcher = poller({ repos: ['octo/missing', 'octo/repo'], log });
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    github.addComment('octo', 'repo', 12, { body: 'still seen', user: octocat });
    await watcher.pollOnce();
    expect(bodies()).toEqual(['still seen']);
    expect(
      log.lines
        .filter((line) => line['event'] === 'github.poll_failed')
        .map((line) => line['repo']),
    ).toEqual(['octo/missing', 'octo/missing', 'octo/missing', 'octo/missing']);
  });

  it('joins a round already running instead of starting a second one', async () => {
    const watcher = poller();
    await Promise.all([watcher.pollOnce(), watcher.pollOnce(), watcher.pollOnce()]);
    expect(github.callsMatching('GET', listPath)).toHaveLength(1);
  });

  it('takes a comment made in the same second as the poll before, just after it', async () => {
    // GitHub stamps comments in whole seconds: one made at 10:00:00.800 reads 10:00:00Z, and a
    // poll that began at 10:00:00.500 did not see it yet.
    at('2024-05-01T10:00:00.500Z');
    const watcher = poller();
    await watcher.pollOnce();
    at('2024-05-01T10:00:00.800Z');
    github.addComment('octo', 'repo', 12, { body: 'just after', user: octocat });
    for (const time of ['10:00:30', '10:01:00', '10:01:30']) {
      at(`2024-05-01T${time}.000Z`);
      await watcher.pollOnce();
    }
    expect(bodies()).toEqual(['just after']);
  });

  it('takes every comment when its clock runs a few seconds ahead of GitHub', async () => {
    const watcher = poller({ skewMs: 5_000 });
    await watcher.pollOnce();
    at('2024-05-01T10:00:30.000Z');
    await watcher.pollOnce(); // nothing new
    at('2024-05-01T10:00:32.000Z');
    github.addComment('octo', 'repo', 12, { body: 'made between two polls', user: octocat });
    for (const time of ['10:01:00', '10:01:30']) {
      at(`2024-05-01T${time}.000Z`);
      await watcher.pollOnce();
    }
    expect(bodies()).toEqual(['made between two polls']);
  });

  it('polls at once when started, and its stop waits for the round in flight', async () => {
    const watcher = poller();
    watcher.start();
    await github.waitForCall('GET', listPath);
    await watcher.stop();
    const calls = github.callsMatching('GET', listPath).length;
    expect(calls).toBe(1);
  });

  describe('in a fleet, with the repository lease (docs/design.md §21)', () => {
    it('does not poll a repository whose lease another instance holds', async () => {
      const asked: string[] = [];
      await poller({ lease: async (repo) => (asked.push(repo), 'elsewhere') }).pollOnce();
      expect(asked).toEqual(['octo/repo']);
      expect(github.callsMatching('GET', listPath)).toEqual([]);
    });

    it('looks back over the lease TTL and two rounds when it just took the lease, never further', async () => {
      github.addComment('octo', 'repo', 12, {
        body: 'missed by the last holder',
        user: octocat,
        createdAt: '2024-05-01T09:59:10Z',
      });
      github.addComment('octo', 'repo', 12, {
        body: 'long before',
        user: octocat,
        createdAt: '2024-05-01T09:00:00Z',
      });
      await poller({ lease: async () => 'taken' }).pollOnce();
      // 30 s of TTL and two 30 s rounds back from 10:00:00.
      const [call] = github.callsMatching('GET', listPath);
      expect(call?.query['since']).toBe('2024-05-01T09:58:30.000Z');
      expect(bodies()).toEqual(['missed by the last holder']);
    });
  });
});
