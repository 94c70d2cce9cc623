import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallLog } from './create-call-log.js';
import { failureReply, type createFailurePlan } from './create-failure-plan.js';
import { notFound, type FakeReply, type Route } from './create-github-routes.js';
import type { RateWindow } from './create-rate-window.js';

export interface HttpHandlerDeps {
  readonly token: string;
  readonly apiUrl: string;
  readonly routes: readonly Route[];
  readonly failures: ReturnType<typeof createFailurePlan>;
  readonly log: CallLog;
  readonly rate: RateWindow;
  readonly now: () => number;
}

const badCredentials: FakeReply = {
  status: 401,
  body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string): { ok: boolean; value: unknown } {
  if (raw === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    // Recorded as the raw text, so a test can still see what was sent.
    return { ok: false, value: raw };
  }
}

const requestId = () =>
  [2, 3, 3, 3, 4].map((size) => randomBytes(size).toString('hex').toUpperCase()).join(':');

/** Weak validators match whatever the quoting; a client may send back a list of them. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return (ifNoneMatch ?? '')
    .split(',')
    .some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/** One request end to end: credentials, injected failures, the route, caching headers, the record. */
export function createHttpHandler(deps: HttpHandlerDeps) {
  function decide(
    request: IncomingMessage,
    method: string,
    url: URL,
    body: { ok: boolean; value: unknown },
  ) {
    const [scheme = '', token = ''] = (request.headers.authorization ?? '').split(/\s+/, 2);
    if (!/^(token|bearer)$/i.test(scheme) || token !== deps.token) return badCredentials;
    const failure = deps.failures.take(method, url.pathname);
    if (failure !== undefined) return failureReply(failure, deps.rate.snapshot(), deps.now());
    if (!body.ok) return { status: 400, body: { message: 'Problems parsing JSON' } };
    for (const route of deps.routes) {
      const params = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (params === null) continue;
      const query = Object.fromEntries(url.searchParams);
      return route.handle(params.slice(1).map(decodeURIComponent), {
        url,
        query,
        body: body.value,
      });
    }
    return notFound;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = new URL(request.url ?? '/', deps.apiUrl);
    const body = parseBody(await readBody(request));
    const reply = decide(request, method, url, body);
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-api-version-selected': '2022-11-28',
      'x-github-request-id': requestId(),
    };
    let status = reply.status;
    if (method === 'GET' && status === 200) {
      const etag = `W/"${createHash('sha256').update(text).digest('hex')}"`;
      Object.assign(headers, { etag, 'cache-control': 'private, max-age=60, s-maxage=60' });
      // A 304 costs nothing against the rate limit on GitHub, so conditional polling is cheap.
      if (matchesEtag(request.headers['if-none-match'], etag)) status = 304;
    }
    if (reply !== badCredentials) {
      if (status !== 304 && url.pathname !== '/rate_limit') deps.rate.count();
      Object.assign(headers, deps.rate.headers(deps.rate.snapshot()));
    }
    Object.assign(headers, reply.headers);
    deps.log.add({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: body.value,
      status,
      at: deps.now(),
    });
    if (status === 304) delete headers['content-type'];
    response.writeHead(status, headers);
    response.end(status === 304 ? undefined : text);
  }

  return (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ message: `fake GitHub failed: ${String(error)}` }));
    });
  };
}
