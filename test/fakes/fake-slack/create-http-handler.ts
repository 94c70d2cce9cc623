import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { checkToken } from './check-token.js';
import type { FailurePlan, FakeFailure } from './create-failure-plan.js';
import type { Recorder } from './create-recorder.js';
import type { ApiMethod, ApiReply } from './create-web-api-methods.js';
import type { FakeSlackIdentity } from './fake-slack-identity.js';
import type { FileStore } from './create-file-store.js';
import { parseApiBody, type ApiArgs } from './parse-api-body.js';

/** One Web API request as the fake saw it; injected failures are recorded too. */
export interface WebApiCall {
  readonly method: string;
  readonly args: ApiArgs;
  readonly token: string | undefined;
  readonly at: number;
  readonly failedWith?: FakeFailure;
  /** What the fake answered, when it answered as Slack would (not an injected failure). */
  readonly response?: ApiReply;
}

/** One POST to a `response_url` the fake handed out with a slash command. */
export interface ResponseUrlPost {
  readonly id: string;
  readonly body: unknown;
  readonly at: number;
}

export interface HttpHandlerDeps {
  readonly identity: FakeSlackIdentity;
  readonly methods: Readonly<Record<string, ApiMethod>>;
  readonly failures: FailurePlan;
  readonly calls: Recorder<WebApiCall>;
  readonly responses: Recorder<ResponseUrlPost>;
  readonly now: () => number;
  readonly isDown: () => boolean;
  /** Shared files' downloads and uploads' bytes, outside `/api/`. */
  readonly files?: FileStore;
}

/** Routes `/api/<method>` (the Web API) and `/response/<id>` (slash command response URLs). */
export function createHttpHandler(deps: HttpHandlerDeps): RequestListener {
  return (req, res) => {
    if (deps.isDown()) {
      req.socket.destroy();
      return;
    }
    readBody(req)
      .then((raw) => {
        if (deps.files?.serve(req, res, raw, deps.now())) return;
        route(deps, req, res, raw.toString('utf8'));
      })
      .catch((error: unknown) => sendJson(res, 500, { ok: false, error: String(error) }));
  };
}

function route(deps: HttpHandlerDeps, req: IncomingMessage, res: ServerResponse, raw: string) {
  const path = new URL(req.url ?? '/', 'http://fake').pathname;
  const api = /^\/api\/([\w.]+)$/.exec(path);
  if (api?.[1] !== undefined) return answerApi(deps, api[1], req, res, raw);
  const response = /^\/response\/([\w-]+)$/.exec(path);
  if (response?.[1] !== undefined && req.method === 'POST') {
    deps.responses.add({ id: response[1], body: parseMaybeJson(raw), at: deps.now() });
    return sendJson(res, 200, { ok: true });
  }
  return sendJson(res, 404, { ok: false, error: 'not_found' });
}

function answerApi(
  deps: HttpHandlerDeps,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
) {
  const parsed = parseApiBody(req.headers['content-type'], raw);
  const args = 'args' in parsed ? parsed.args : {};
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const token = bearer ?? ('bodyToken' in parsed ? parsed.bodyToken : undefined);
  const at = deps.now();
  const failure = deps.failures.take(method);
  if (failure !== undefined) {
    deps.calls.add({ method, args, token, at, failedWith: failure });
    return sendFailure(res, failure);
  }
  const response = reply(deps, method, token, parsed);
  deps.calls.add({ method, args, token, at, response });
  const { scopes } = deps.identity;
  const granted =
    scopes !== undefined && token === deps.identity.botToken
      ? { 'x-oauth-scopes': scopes.join(',') }
      : {};
  return sendJson(res, 200, response, granted);
}

function reply(
  deps: HttpHandlerDeps,
  method: string,
  token: string | undefined,
  parsed: ReturnType<typeof parseApiBody>,
): ApiReply {
  const run = Object.hasOwn(deps.methods, method) ? deps.methods[method] : undefined;
  if (run === undefined) return { ok: false, error: 'unknown_method' };
  const authError = checkToken(method, token, deps.identity);
  if (authError !== undefined) return { ok: false, error: authError };
  if (!('args' in parsed)) return { ok: false, error: 'invalid_json' };
  return run(parsed.args);
}

function sendFailure(res: ServerResponse, failure: FakeFailure) {
  if ('okFalse' in failure) return sendJson(res, 200, { ok: false, error: failure.okFalse });
  if (failure.status === 500) return sendJson(res, 500, { ok: false, error: 'fatal_error' });
  const headers = { 'retry-after': String(failure.retryAfterSeconds) };
  return sendJson(res, 429, { ok: false, error: 'ratelimited' }, headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function parseMaybeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
