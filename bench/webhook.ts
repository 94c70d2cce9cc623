import path from 'node:path';
import type { LoggedEvent } from '../src/state/event-log.js';
import { startFakeGithub } from '../test/fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  signDelivery,
  withComment,
} from '../test/fakes/fake-github/webhook-delivery.js';
import type { CleanupStack } from './cleanup-stack.js';
import { createJsonLinesReader } from './json-lines-reader.js';
import { postAll, type PostRequest } from './post-all.js';
import { startPrivateTmux } from './private-tmux.js';
import { startServe } from './start-serve.js';
import { waitUntil } from './wait-until.js';

export interface WebhookResult {
  readonly deliveries: number;
  /** Request written → 202 read, ms, one per timed delivery. */
  readonly samples: number[];
  /** Timed deliveries answered 202 per second of wall time. */
  readonly perS: number;
  /** Answers other than 202 `{accepted: true}`. */
  readonly rejected: number;
  /** `github.handled` events for the timed deliveries. */
  readonly judged: number;
  /** Of those, judged `refused` (for scope) or `unauthorized`, as the author asked for. */
  readonly refused: number;
  /** Timed deliveries judged per second, first send → last `github.handled`. */
  readonly judgedPerS: number;
}

const secret = 'bench-webhook-secret';
const warmup = 20;
/** Spread over this many issues: the inbox judges one work item's comments one after another. */
const issues = 50;
const judgeTimeoutMs = 180_000;

/**
 * Signed `issue_comment` deliveries to the webhook listener of a real `serve` whose instance is
 * `addressed` and never addressed: each is verified, recorded, deduped and judged — refused for
 * scope (or, from a stranger, as unauthorized), so no session starts and nothing reaches GitHub.
 */
export async function measureWebhook(options: {
  readonly deliveries: number;
  /**
   * `octocat` is authorized, so each comment goes through the scope decision. A stranger's comment
   * is judged `unauthorized` before it: verify + record + dedupe alone, for comparison.
   */
  readonly author: 'octocat' | 'stranger';
  readonly concurrency: number;
  readonly cleanup: CleanupStack;
}): Promise<WebhookResult> {
  const { cleanup } = options;
  const github = await startFakeGithub();
  cleanup.defer('stop the fake GitHub', () => github.stop());
  const tmux = await startPrivateTmux('webhook', cleanup);
  const serve = await startServe({
    label: 'webhook',
    cleanup,
    tmuxSocket: tmux.socket,
    config: () => ({
      instance: { name: 'bench-a', scope: { mode: 'addressed', workItems: [] } },
      standing: { autoStart: false, sessions: [] },
      slack: { enabled: false },
      github: { repos: [{ repo: 'octo/repo', path: '.' }], authorizedUsers: ['octocat'] },
      http: { host: '127.0.0.1', port: 0 },
    }),
    env: {
      GITHUB_TOKEN: github.token,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_WEBHOOK_SECRET: secret,
    },
  });
  const url = `http://127.0.0.1:${await listeningPort(serve.logRecords)}/github/webhook`;

  const example = withComment(loadExamplePayload('issue_comment', 'created'), {
    body: 'example',
    login: 'octocat',
    repo: 'octo/repo',
  });
  const delivery = (index: number): PostRequest => {
    const payload = withComment(example, {
      body: `Looks right to me; one more test for case ${index} would help.`,
      login: options.author,
      number: 1 + (index % issues),
      commentId: 9_000_000 + index,
    });
    return signDelivery(secret, payload, { event: 'issue_comment' });
  };
  const events = createJsonLinesReader<LoggedEvent>(path.join(serve.stateRoot, 'events.jsonl'));
  const handled = () => events.all.filter((entry) => entry.event === 'github.handled');
  const judged = (count: number) => async () => {
    await events.readNew();
    return handled().length >= count;
  };

  const warm = Array.from({ length: warmup }, (_, index) => delivery(index));
  await postAll(url, warm, options.concurrency);
  await waitUntil(judged(warmup), {
    what: 'the warm-up deliveries to be judged',
    timeoutMs: 30_000,
    intervalMs: 20,
  });

  // Signed before the clock starts: the sender's HMAC is not the listener's cost.
  const timed = Array.from({ length: options.deliveries }, (_, index) => delivery(warmup + index));
  const startedAt = Date.now();
  const { outcomes, wallMs } = await postAll(url, timed, options.concurrency);
  const rejected = outcomes.filter(
    (outcome) => outcome.status !== 202 || !outcome.body.includes('"accepted":true'),
  ).length;
  const total = warmup + options.deliveries - rejected;
  // A shortfall is not an error here: it is the figure (webhook_judged < webhook_deliveries).
  const deadline = performance.now() + judgeTimeoutMs;
  await waitUntil(async () => (await judged(total)()) || performance.now() > deadline, {
    what: `${total} deliveries to be judged`,
    timeoutMs: judgeTimeoutMs * 2,
    intervalMs: 50,
  });
  const timedHandled = handled().slice(warmup);
  const lastAt = Math.max(startedAt, ...timedHandled.map((entry) => Date.parse(entry.ts)));
  return {
    deliveries: options.deliveries,
    samples: outcomes.map((outcome) => outcome.ms),
    perS: (options.deliveries - rejected) / (wallMs / 1000),
    rejected,
    judged: timedHandled.length,
    refused: timedHandled.filter(
      (entry) => entry['outcome'] === (options.author === 'octocat' ? 'refused' : 'unauthorized'),
    ).length,
    judgedPerS: timedHandled.length / Math.max(0.001, (lastAt - startedAt) / 1000),
  };
}

async function listeningPort(
  logRecords: () => Promise<Array<Record<string, unknown>>>,
): Promise<number> {
  return waitUntil(
    async () => {
      const line = (await logRecords()).find((record) => record['event'] === 'http.listening');
      return typeof line?.['port'] === 'number' ? line['port'] : undefined;
    },
    { what: 'serve to log its http port', timeoutMs: 10_000, intervalMs: 20 },
  );
}
