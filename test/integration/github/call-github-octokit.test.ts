import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callGithub } from '../../../src/github/call-github.js';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { surfaceOctokit } from './surface-octokit.js';

const issuePath = /^\/repos\/octo\/repo\/issues\/12$/;

/** callGithub around real Octokit calls, so the error facts come from real RequestErrors. */
describe('callGithub with the fake GitHub and a real Octokit', () => {
  let github: FakeGithub;
  let waits: number[];

  beforeEach(async () => {
    github = await startFakeGithub();
    github.addIssue('octo', 'repo', { number: 12, title: 'Fix the build' });
    waits = [];
  });

  afterEach(async () => {
    await github.stop();
  });

  const getIssue = () =>
    callGithub(
      'get issue',
      () => surfaceOctokit(github).issues.get({ owner: 'octo', repo: 'repo', issue_number: 12 }),
      { logger: captureLogger().logger, sleep: async (ms) => void waits.push(ms) },
    );

  const statuses = () => github.callsMatching('GET', issuePath).map((call) => call.status);

  it('retries server errors with backoff', async () => {
    github.failNext({ path: issuePath }, { status: 502 }, 2);
    expect((await getIssue()).data.number).toBe(12);
    expect(statuses()).toEqual([502, 502, 200]);
    expect(waits).toEqual([1_000, 2_000]);
  });

  it('waits for the reset of the primary rate limit GitHub announces', async () => {
    github.failNext({ path: issuePath }, { rateLimit: true, resetInSeconds: 20 });
    await getIssue();
    expect(statuses()).toEqual([403, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(18_000);
    expect(waits[0]).toBeLessThanOrEqual(21_000);
  });

  it('waits out a secondary rate limit by its Retry-After', async () => {
    github.failNext({ path: issuePath }, { secondaryRateLimit: true, retryAfterSeconds: 7 });
    await getIssue();
    expect(statuses()).toEqual([403, 200]);
    expect(waits).toEqual([7_000]);
  });

  it.each([404, 422])('gives up at once on a %i', async (status) => {
    github.failNext({ path: issuePath }, { status });
    await expect(getIssue()).rejects.toMatchObject({ code: 'github_failed', details: { status } });
    expect(statuses()).toEqual([status]);
    expect(waits).toEqual([]);
  });

  it('gives up after four attempts at a server that keeps failing', async () => {
    github.failNext({ path: issuePath }, { status: 503 }, 10);
    await expect(getIssue()).rejects.toMatchObject({
      code: 'github_failed',
      details: { status: 503 },
    });
    expect(statuses()).toEqual([503, 503, 503, 503]);
    expect(waits).toEqual([1_000, 2_000, 4_000]);
  });

  it('retries when nothing answers at all', async () => {
    await github.stop();
    // Octokit reports a refused connection as a RequestError with status 500.
    await expect(getIssue()).rejects.toMatchObject({ code: 'github_failed' });
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    github = await startFakeGithub();
  });
});
