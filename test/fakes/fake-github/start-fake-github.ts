import { createServer } from 'node:http';
import { createCallLog, type RecordedCall } from './create-call-log.js';
import {
  createFailurePlan,
  type FailureMatcher,
  type FakeGithubFailure,
} from './create-failure-plan.js';
import { createGithubRoutes } from './create-github-routes.js';
import { createGithubStore, type NewComment, type NewIssue } from './create-github-store.js';
import { createHttpHandler } from './create-http-handler.js';
import { createRateWindow } from './create-rate-window.js';
import { createRenderers } from './create-renderers.js';
import { fakeBot } from './fake-github-user.js';

export type FakeGithub = Awaited<ReturnType<typeof startFakeGithub>>;
export type { FailureMatcher, FakeGithubFailure, NewComment, NewIssue, RecordedCall };
export { fakeBot };

export interface FakeGithubOptions {
  /** The only token the fake accepts. */
  readonly token?: string;
  /** Epoch milliseconds, for timestamps and rate-limit windows. */
  readonly now?: () => number;
}

export const defaultFakeGithubToken = 'ghs_fakeGithubInstallationToken0000';
const defaultWaitMs = 5_000;

/**
 * GitHub's REST API at the network edge, on 127.0.0.1 and a random port: give `apiUrl` to Octokit
 * as `baseUrl` (or as GITHUB_API_URL). Seed repositories, issues and comments; every request is
 * recorded and failures can be injected. The fake never calls itself, so `calls` holds exactly what
 * the code under test sent.
 */
export async function startFakeGithub(options: FakeGithubOptions = {}) {
  const token = options.token ?? defaultFakeGithubToken;
  const now = options.now ?? Date.now;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const apiUrl = `http://127.0.0.1:${port}`;

  const store = createGithubStore(now);
  const render = createRenderers(apiUrl, store);
  const rate = createRateWindow(now);
  const log = createCallLog();
  const failures = createFailurePlan();
  const routes = createGithubRoutes(store, render, rate);
  server.on('request', createHttpHandler({ token, apiUrl, routes, failures, log, rate, now }));

  const matching = (method: string, path: RegExp) => (call: RecordedCall) => {
    path.lastIndex = 0;
    return call.method === method.toUpperCase() && path.test(call.path);
  };

  return {
    apiUrl,
    token,
    bot: fakeBot,
    addRepo: (owner: string, repo: string): void => store.addRepo(owner, repo),
    /** Adds (or replaces) an issue, or a pull request with `isPullRequest`; creates the repo. */
    addIssue: (owner: string, repo: string, issue: NewIssue) =>
      render.issue(store.addIssue(owner, repo, issue)),
    /** A comment on the conversation of an issue or PR, as `GET …/issues/comments` shows it. */
    addComment: (owner: string, repo: string, number: number, comment: NewComment) =>
      render.comment(store.addComment('issue', owner, repo, number, comment)),
    /** A review comment on a PR's diff: the target of `POST …/pulls/comments/{id}/reactions`. */
    addReviewComment: (owner: string, repo: string, number: number, comment: NewComment) =>
      render.comment(store.addComment('review', owner, repo, number, comment)),
    /** Reaction contents on a comment (issue or review), oldest first. */
    reactionsOn(commentId: number): string[] {
      const comment = store.findCommentById(commentId);
      return comment === undefined ? [] : store.reactionsOn(comment).map((r) => r.content);
    },
    /** The body a comment has now, after any edits, or undefined for an unknown id. */
    commentBody: (commentId: number) => store.findCommentById(commentId)?.body,
    calls: log.calls,
    callsMatching: (method: string, path: RegExp) => log.calls.filter(matching(method, path)),
    /** Calls that change something: everything but GETs. */
    writeCalls: () => log.calls.filter((call) => call.method !== 'GET'),
    /** The first matching call since the last reset, already made or still to come. */
    waitForCall(method: string, path: RegExp, timeoutMs = defaultWaitMs): Promise<RecordedCall> {
      return log.waitFor(matching(method, path), timeoutMs, `${method} ${String(path)} call`);
    },
    failNext(matcher: FailureMatcher, failure: FakeGithubFailure, times = 1): void {
      failures.failNext(matcher, failure, times);
    },
    /** Forgets recorded calls and planned failures; repositories, issues and comments stay. */
    reset(): void {
      log.reset();
      failures.reset();
    },
    async stop(): Promise<void> {
      log.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
