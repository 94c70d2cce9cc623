import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { classifyRequest, isRecord, type RequestKind } from './classify-request.js';
import type { ScriptedAnswer } from './scripted-answer.js';
import { frameSse, messageBody, sseEvents, type MessageIds } from './sse-events.js';

/** One request as the fake saw it. `at` is epoch milliseconds, when its body had arrived. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly kind: RequestKind;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly at: number;
}

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Queues answers for the next main turns, in order. */
  script(...answers: ScriptedAnswer[]): void;
  /** Drops the answers not yet taken (a turn that ended early leaves its follow-up behind). */
  clearScript(): void;
  /** Resolves with the first request (already seen or still to come) that matches. */
  waitForRequest(
    matches: (request: RecordedRequest) => boolean,
    options?: { timeoutMs?: number; what?: string },
  ): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/**
 * A small, fixed token count: a realistic estimate of a 100 KB prompt would fill Claude Code's
 * context meter and set off its auto-compaction, which makes requests no test scripted.
 */
const FAKE_INPUT_TOKENS = 100;

/** What a turn gets when nothing is scripted: a short answer, so an unscripted turn still ends. */
const DEFAULT_ANSWER: ScriptedAnswer = { kind: 'text', text: 'OK.' };

/**
 * A local stand-in for the Anthropic Messages API, as Claude Code uses it: streamed SSE turns that
 * take scripted answers, side requests answered without touching the script, and a record of every
 * request so a test can find the prompt that reached the "model".
 */
export async function startFakeAnthropic(
  options: { defaultAnswer?: ScriptedAnswer; port?: number } = {},
): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const open = new Set<ServerResponse>();
  const fallback = options.defaultAnswer ?? DEFAULT_ANSWER;

  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }),
      );
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = parseJson(raw);
    const kind = classifyRequest(req.method ?? 'GET', url.pathname, body);
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      kind,
      headers: pickHeaders(req),
      body,
      at: Date.now(),
    };
    requests.push(request);
    events.emit('request', request);

    if (kind === 'count_tokens') return json(res, 200, { input_tokens: FAKE_INPUT_TOKENS });
    // Claude Code probes the base URL with `HEAD /` before its first request.
    if (kind === 'other' && url.pathname === '/' && request.method === 'HEAD') {
      res.writeHead(200);
      return void res.end();
    }
    if (kind === 'other') {
      return json(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `fake Anthropic: no ${url.pathname}` },
      });
    }
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'claude-fake';
    const ids: MessageIds = {
      messageId: `msg_${randomBytes(12).toString('hex')}`,
      toolUseId: `toolu_${randomBytes(12).toString('hex')}`,
      model,
      inputTokens: FAKE_INPUT_TOKENS,
    };
    const answer: ScriptedAnswer =
      kind === 'turn' ? (queue.shift() ?? fallback) : { kind: 'text', text: sideAnswer(body) };
    const streamed = isRecord(body) && body.stream === true;
    if (!streamed) return json(res, 200, messageBody(answer, ids));

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': `req_${randomBytes(8).toString('hex')}`,
    });
    const all = sseEvents(answer, ids);
    // message_start and the ping go out at once, so the client knows the turn has begun.
    for (const event of all.slice(0, 2)) res.write(frameSse(event));
    if (answer.delayMs !== undefined) await delay(answer.delayMs);
    if (answer.until !== undefined) await answer.until.catch(() => undefined);
    for (const event of all.slice(2)) {
      if (res.destroyed) return;
      res.write(frameSse(event));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...answers) {
      queue.push(...answers);
    },
    clearScript() {
      queue.length = 0;
    },
    waitForRequest(matches, waitOptions = {}) {
      const found = requests.find(matches);
      if (found !== undefined) return Promise.resolve(found);
      const timeoutMs = waitOptions.timeoutMs ?? 60_000;
      return new Promise((resolve, reject) => {
        const onRequest = (request: RecordedRequest) => {
          if (!matches(request)) return;
          clearTimeout(timer);
          events.off('request', onRequest);
          resolve(request);
        };
        const timer = setTimeout(() => {
          events.off('request', onRequest);
          reject(
            new Error(`fake Anthropic: no ${waitOptions.what ?? 'request'} in ${timeoutMs} ms`),
          );
        }, timeoutMs);
        events.on('request', onRequest);
      });
    },
    async close() {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Side requests get a short answer shaped for what they ask: the title request wants JSON with a
 * `title`, the topic check JSON with `isNewTopic`; anything else a plain word.
 */
function sideAnswer(body: unknown): string {
  const system = JSON.stringify(isRecord(body) ? (body.system ?? '') : '');
  if (/isNewTopic/.test(system)) return '{"isNewTopic": false, "title": null}';
  if (/title/i.test(system)) return '{"title": "Fake session"}';
  return 'OK';
}

function pickHeaders(req: IncomingMessage): Record<string, string> {
  const keep = ['x-api-key', 'authorization', 'anthropic-version', 'anthropic-beta', 'user-agent'];
  const out: Record<string, string> = {};
  for (const name of keep) {
    const value = req.headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return raw;
    throw error;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
