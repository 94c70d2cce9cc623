import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { LoggedEvent } from '../../src/state/event-log.js';
import { readEvents } from '../helpers/read-events.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type RecordedRequest,
} from '../fakes/fake-anthropic/start-fake-anthropic.js';
import { claudeCodeBinary } from './claude-code-install.js';
import { claudeEnv, seedClaudeHome } from './scratch-home.js';

/** A `the-loop serve` whose `claude` harness is the real Claude Code, talking to a fake API. */
export interface RealClaude {
  readonly serve: ServeFixture;
  readonly fake: FakeAnthropic;
  /** The scratch HOME Claude Code runs with. */
  readonly home: string;
  /** The trusted folder sessions run in (the config's default cwd). */
  readonly work: string;
  /** A folder left out of `~/.claude.json`, so Claude Code asks whether to trust it. */
  readonly untrusted: string;
  /** The first main-turn request whose user messages contain `text`. */
  requestWith(text: string, timeoutMs?: number): Promise<RecordedRequest>;
  /** The events of `<state>/events.jsonl` so far. */
  events(): Promise<LoggedEvent[]>;
  dispose(): Promise<void>;
}

export async function startRealClaude(
  options: {
    /** More of serve's config (Slack, permissions), laid over the tier's own. */
    readonly config?: Record<string, unknown>;
    /** serve's environment (Slack tokens and the fake Slack's URL). */
    readonly env?: Record<string, string>;
  } = {},
): Promise<RealClaude> {
  const fake = await startFakeAnthropic();
  const binary = claudeCodeBinary();
  let home = '';
  const serve = await createServeFixture(
    ({ dir }) => {
      home = path.join(dir, 'claude-home');
      const env = claudeEnv({ home, baseUrl: fake.url });
      return {
        harnesses: {
          claude: {
            kind: 'claude',
            command: 'env',
            args: [...Object.entries(env).map(([name, value]) => `${name}=${value}`), binary],
          },
        },
        defaults: { harness: 'claude', cwd: 'work' },
        // The product's defaults: the tier measures what a user gets, not a tuned test setup.
        delivery: {},
        ...options.config,
      };
    },
    { ...(options.env ? { env: options.env } : {}) },
  );
  const work = path.join(serve.dir, 'work');
  const untrusted = path.join(serve.dir, 'untrusted');
  await mkdir(untrusted, { recursive: true });
  await seedClaudeHome({ home, trusted: [work] });
  await serve.start();

  return {
    serve,
    fake,
    home,
    work,
    untrusted,
    requestWith(text, timeoutMs = 60_000) {
      return fake.waitForRequest(
        (request) => request.kind === 'turn' && userTexts(request).some((t) => t.includes(text)),
        { timeoutMs, what: `a turn whose prompt contains ${JSON.stringify(text.slice(0, 60))}` },
      );
    },
    events: () => readEvents(path.join(serve.stateRoot, 'events.jsonl')),
    async dispose() {
      await serve.dispose();
      await fake.close();
    },
  };
}

/** Every text block of the request's user messages, in order (the prompt is among the last). */
export function userTexts(request: RecordedRequest): string[] {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  const texts: string[] = [];
  for (const message of body?.messages ?? []) {
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content as Array<{ type?: string; text?: string }>) {
        if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      }
    }
  }
  return texts;
}

/** Waits for an event in the log that matches. */
export function eventMatching(
  claude: RealClaude,
  matches: (event: LoggedEvent) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<LoggedEvent> {
  return eventually(async () => (await claude.events()).find(matches), { timeoutMs, what });
}
