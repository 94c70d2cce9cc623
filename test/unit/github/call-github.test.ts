import { describe, expect, it } from 'vitest';
import { isLoopError, type LoopError } from '../../../src/errors.js';
import { callGithub } from '../../../src/github/call-github.js';
import { captureLogger } from '../../helpers/capture-logger.js';

/** What Octokit throws for an HTTP error: a status and the response headers. */
const httpError = (status: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP ${status}`), { status, response: { status, headers } });

/** A call that fails with each of `failures` in turn, then answers `value`. */
function scripted<T>(failures: unknown[], value: T) {
  const attempts: number[] = [];
  const call = async (): Promise<T> => {
    attempts.push(attempts.length + 1);
    const failure = failures[attempts.length - 1];
    if (failure !== undefined) throw failure;
    return value;
  };
  return { call, attempts };
}

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

async function failureOf(promise: Promise<unknown>): Promise<LoopError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isLoopError(error)) throw new Error(`expected a LoopError, got ${String(error)}`);
  return error;
}

describe('callGithub', () => {
  it('answers at once when the call succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    const { call, attempts } = scripted([], { id: 1 });
    const log = captureLogger();
    expect(await callGithub('comment', call, { logger: log.logger, sleep })).toEqual({ id: 1 });
    expect(attempts).toEqual([1]);
    expect(waits).toEqual([]);
    expect(log.lines).toEqual([]);
  });

  it('backs off 1 s then 2 s on server errors, logging each retry, then answers', async () => {
    const { waits, sleep } = recordingSleep();
    const { call, attempts } = scripted([httpError(502), httpError(503)], 'ok');
    const log = captureLogger();
    expect(await callGithub('reaction', call, { logger: log.logger, sleep })).toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    expect(waits).toEqual([1_000, 2_000]);
    expect(
      log.lines.map((line) => [line['event'], line['attempt'], line['waitMs'], line['status']]),
    ).toEqual([
      ['github.retry', 1, 1_000, 502],
      ['github.retry', 2, 2_000, 503],
    ]);
  });

  it('gives up after four attempts with github_failed and the last status', async () => {
    const { waits, sleep } = recordingSleep();
    const { call, attempts } = scripted(
      Array.from({ length: 9 }, () => httpError(502)),
      'never',
    );
    const error = await failureOf(
      callGithub('list comments', call, { logger: captureLogger().logger, sleep }),
    );
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    expect(error.code).toBe('github_failed');
    expect(error.details).toEqual({ status: 502 });
    expect(error.message).toBe('GitHub list comments failed (502)');
  });

  it('honours maxAttempts', async () => {
    const { waits, sleep } = recordingSleep();
    const { call, attempts } = scripted([httpError(500), httpError(500), httpError(500)], 'x');
    await failureOf(
      callGithub('comment', call, { logger: captureLogger().logger, sleep, maxAttempts: 2 }),
    );
    expect(attempts).toEqual([1, 2]);
    expect(waits).toEqual([1_000]);
  });

  it.each([404, 422, 401])('does not retry a %i', async (status) => {
    const { waits, sleep } = recordingSleep();
    const { call, attempts } = scripted([httpError(status)], 'x');
    const error = await failureOf(
      callGithub('comment', call, { logger: captureLogger().logger, sleep }),
    );
    expect(attempts).toEqual([1]);
    expect(waits).toEqual([]);
    expect(error.details).toEqual({ status });
  });

  it('retries a failure with no answer and says so when it gives up', async () => {
    const { waits, sleep } = recordingSleep();
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { call } = scripted([refused, refused, refused, refused], 'x');
    const error = await failureOf(
      callGithub('reaction', call, { logger: captureLogger().logger, sleep }),
    );
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    expect(error.message).toBe('GitHub reaction failed (no answer)');
  });

  it('waits out a secondary rate limit by its Retry-After', async () => {
    const { waits, sleep } = recordingSleep();
    const { call } = scripted([httpError(403, { 'retry-after': '3' })], 'ok');
    expect(await callGithub('comment', call, { logger: captureLogger().logger, sleep })).toBe('ok');
    expect(waits).toEqual([3_000]);
  });

  it('waits for the reset of the primary rate limit', async () => {
    const { waits, sleep } = recordingSleep();
    const reset = String(Math.ceil(Date.now() / 1000) + 10);
    const limited = httpError(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
    const { call } = scripted([limited], 'ok');
    expect(await callGithub('comment', call, { logger: captureLogger().logger, sleep })).toBe('ok');
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(8_000);
    expect(waits[0]).toBeLessThanOrEqual(11_000);
  });

  it('does not retry a 403 that is no rate limit', async () => {
    const { waits, sleep } = recordingSleep();
    const { call, attempts } = scripted([httpError(403)], 'x');
    await failureOf(callGithub('comment', call, { logger: captureLogger().logger, sleep }));
    expect(attempts).toEqual([1]);
    expect(waits).toEqual([]);
  });
});
