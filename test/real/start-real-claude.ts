import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { standingTarget } from '../../src/refs.js';
import type { LoggedEvent } from '../../src/state/event-log.js';
import { readEvents } from '../helpers/read-events.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type CliResult, type ServeFixture } from '../helpers/run-serve.js';
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
  /** `capture-pane -p` of a standing session's pane, trailing blank lines removed. */
  screen(name: string): Promise<string>;
  waitForScreen(name: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Keys pressed in a standing session's pane, as a person attached to it would. */
  keys(name: string, ...keys: string[]): Promise<void>;
  dispose(): Promise<void>;
}

export interface RealClaudeOptions {
  /** Overrides of the product's delivery defaults (e.g. a short readyTimeoutMs). */
  readonly delivery?: Readonly<Record<string, number>>;
  /**
   * Claude Code gets its environment (HOME, ANTHROPIC_*) from serve's, as a user's would, instead
   * of through an `env NAME=value` harness command; `path` is put in front of serve's PATH.
   */
  readonly throughServeEnv?: { readonly path: readonly string[] };
  /** Runs before serve starts, once the fixture's folders and tmux socket are known. */
  readonly beforeServe?: (serve: ServeFixture) => Promise<void>;
  /** More of serve's config (Slack, permissions), laid over the tier's own. */
  readonly config?: Record<string, unknown>;
  /** serve's environment (Slack tokens and the fake Slack's URL). */
  readonly env?: Record<string, string>;
}

export async function startRealClaude(options: RealClaudeOptions = {}): Promise<RealClaude> {
  const fake = await startFakeAnthropic();
  const binary = claudeCodeBinary();
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-real-home-'));
  const home = path.join(dir, 'claude-home');
  const env = claudeEnv({ home, baseUrl: fake.url });
  const viaServe = options.throughServeEnv;
  const serve = await createServeFixture(
    () => ({
      harnesses: {
        // The tier sets the mode it tests: every call asks (2.1.332 defaults to auto mode).
        claude: viaServe
          ? { kind: 'claude', command: binary, permissionMode: 'ask' }
          : {
              kind: 'claude',
              command: 'env',
              args: [...Object.entries(env).map(([name, value]) => `${name}=${value}`), binary],
              permissionMode: 'ask',
            },
      },
      defaults: { harness: 'claude', cwd: 'work' },
      standing: { autoStart: true, allowedRoots: ['work', 'untrusted'], sessions: [] },
      // The product's defaults: the tier measures what a user gets, not a tuned test setup.
      delivery: { ...options.delivery },
      ...options.config,
    }),
    viaServe
      ? {
          env: {
            ...options.env,
            ...env,
            PATH: [...viaServe.path, ...(process.env['PATH'] ?? '').split(':')].join(':'),
          },
        }
      : { ...(options.env ? { env: options.env } : {}) },
  );
  const work = path.join(serve.dir, 'work');
  const untrusted = path.join(serve.dir, 'untrusted');
  await mkdir(untrusted, { recursive: true });
  await seedClaudeHome({ home, trusted: [work] });
  await options.beforeServe?.(serve);
  await serve.start();

  const screen = async (name: string): Promise<string> =>
    (
      await execa('tmux', [
        '-L',
        serve.socket,
        'capture-pane',
        '-p',
        '-t',
        `=${standingTarget(name)}:`,
      ])
    ).stdout.replace(/\n+$/, '');

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
    screen,
    waitForScreen(name, pattern, timeoutMs = 30_000) {
      return eventually(
        async () => {
          const shown = await screen(name);
          return pattern.test(shown) ? shown : undefined;
        },
        { timeoutMs, intervalMs: 100, what: `${name}'s screen to show ${String(pattern)}` },
      );
    },
    async keys(name, ...keys) {
      await execa('tmux', [
        '-L',
        serve.socket,
        'send-keys',
        '-t',
        `=${standingTarget(name)}:`,
        ...keys,
      ]);
    },
    async dispose() {
      await serve.dispose();
      await fake.close();
      // Claude Code may still be writing into its HOME as it exits.
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/**
 * Every text block of the request's user messages, in order (the prompt is among the last). From
 * 2.1.332 on, a paste Claude Code collapsed (`[Pasted text #n]`) reaches the model wrapped as
 * `\n\n<pasted_content id="…">\n` + the paste + `\n</pasted_content id="…">\n` (the closing tag
 * repeats the id); the text inside is the paste, whole, so the tier compares that
 * (test/real/FINDINGS.md (h)).
 */
export function userTexts(request: RecordedRequest): string[] {
  return rawUserTexts(request).map(unwrapPasted);
}

/**
 * The text with 2.1.332's `<pasted_content>` wrappers taken off, exactly (no trimming, so a
 * paste's own leading or trailing whitespace still counts); unchanged without them.
 */
export function unwrapPasted(text: string): string {
  return text.replace(
    /(?:\n\n)?<pasted_content id="([^"]*)">\n([\s\S]*?)\n<\/pasted_content(?: id="\1")?>\n?/g,
    '$2',
  );
}

/** Every text block of the request's user messages, as sent (wrappers and all). */
export function rawUserTexts(request: RecordedRequest): string[] {
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
  since = 0,
): Promise<LoggedEvent> {
  return eventually(async () => (await claude.events()).slice(since).find(matches), {
    timeoutMs,
    what,
  });
}

/** The delivery id a `say` printed (`… (delivery <id>…`). */
export function deliveryIdOf(said: CliResult): string {
  const id = /\(delivery ([0-9a-f-]{36})/.exec(said.stdout)?.[1];
  if (!id) throw new Error(`no delivery id in ${JSON.stringify(said.stdout)} ${said.stderr}`);
  return id;
}

/** The final outcome of a delivery, once the event log has one. */
export async function finalOutcome(
  claude: RealClaude,
  deliveryId: string,
  timeoutMs = 60_000,
): Promise<string> {
  const final = await eventMatching(
    claude,
    (event) =>
      event['deliveryId'] === deliveryId &&
      ['delivery.delivered', 'delivery.unconfirmed', 'delivery.failed'].includes(event.event),
    `the final outcome of delivery ${deliveryId}`,
    timeoutMs,
  );
  return final.event;
}
