import type { Logger } from '../log/create-logger.js';

/**
 * The control plane's route table contract (docs/design.md §3.5). The server owns transport, auth, body
 * parsing and error mapping; a handler only sees parsed input and returns a status and a JSON body.
 */

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export const httpMethods: readonly HttpMethod[] = ['GET', 'POST', 'DELETE'];

/**
 * `operator`: the person running the-loop (the CLI, or a TCP client holding the API token).
 * `session`: an agent speaking for itself; the server hands the session token header to the
 * handler, which decides whose token it is. On TCP both kinds also need the bearer token.
 */
export type RouteAuth = 'operator' | 'session';

/** The header `the-loop post` and `the-loop hook` send; lower case, as node:http reports it. */
export const sessionTokenHeader = 'x-the-loop-session-token';

export interface ApiRequest {
  /** Path parameters, URL-decoded (`{name}` → `params.name`). */
  readonly params: Record<string, string>;
  /** The parsed JSON body; `undefined` when the request had none. */
  readonly body: unknown;
  /**
   * The `X-The-Loop-Session-Token` header, when sent, for `auth: 'session'` routes and those
   * that take it as an option (`say`: the agent speaking, docs/design.md §20).
   */
  readonly sessionToken?: string;
  readonly requestId: string;
  /** Aborted when the client hangs up before it has its answer. */
  readonly signal: AbortSignal;
  /** The query string (`?since=5`); set by the server, absent in handler unit tests. */
  readonly query?: URLSearchParams;
  /** The request's headers as node:http reports them (lower-case names). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Already tagged with `requestId`. */
  readonly logger: Logger;
}

export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
  /** Set for a body written as it happens (`GET /api/v1/stream`); `body` is then ignored. */
  readonly stream?: StreamBody;
}

/** Where a streaming route writes; the server owns the socket. */
export interface StreamSink {
  /** Queues text for the client; false once the client is not keeping up. */
  write(text: string): boolean;
  /** Bytes queued and not yet taken by the client. */
  buffered(): number;
  /** Resolves once the queue is taken, or the client has gone. */
  drained(): Promise<void>;
}

export interface StreamBody {
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Writes until `signal` aborts (the client left, or serve is stopping) or it is done; the
   * server sends the headers before calling it and ends the response when it settles.
   */
  run(sink: StreamSink, signal: AbortSignal): Promise<void>;
}

export interface Route {
  readonly method: HttpMethod;
  /** A template such as `/api/v1/standing-sessions/{name}`; a `{param}` fills one whole segment. */
  readonly path: string;
  /** Equal to the operationId in schemas/openapi.yaml (a test keeps them equal). */
  readonly operationId: string;
  readonly auth: RouteAuth;
  /**
   * Refused (403) when the request carries a session token: what only a person may do, such as
   * deciding a permission request (docs/design.md §18). A speed bump: the header can be left out.
   */
  readonly refusesSessions?: boolean;
  /** A larger body than the server's default for this route (a post's files, base64). */
  readonly maxBodyBytes?: number;
  /** An operator route that also reads a session token when one is sent. */
  readonly sessionToken?: 'optional';
  /** Throw a LoopError to refuse; the server turns it into `{error, code}` with its status. */
  readonly handler: (request: ApiRequest) => Promise<ApiResponse>;
}

export type RouteMatch =
  | { readonly route: Route; readonly params: Record<string, string> }
  | { readonly error: 'not_found' }
  /** `allow` lists the methods the path does serve, for the `Allow` header of a 405. */
  | { readonly error: 'method_not_allowed'; readonly allow: readonly HttpMethod[] };

/**
 * Finds the route for a request target. The query string and fragment are ignored, one trailing
 * slash is forgiven (`/api/v1/health/`), and `{param}` segments are URL-decoded. When several
 * templates fit, the one with more literal segments wins, so `/x/new` can sit beside `/x/{name}`.
 */
export function matchRoute(routes: readonly Route[], method: string, target: string): RouteMatch {
  const segments = pathSegments(target);
  if (segments === undefined) return { error: 'not_found' };

  let best: { route: Route; params: Record<string, string>; literals: number } | undefined;
  const allow = new Set<HttpMethod>();
  for (const route of routes) {
    const fit = fitTemplate(route.path, segments);
    if (fit === undefined) continue;
    allow.add(route.method);
    if (route.method !== method) continue;
    if (best === undefined || fit.literals > best.literals) best = { route, ...fit };
  }
  if (best !== undefined) return { route: best.route, params: best.params };
  if (allow.size > 0) return { error: 'method_not_allowed', allow: [...allow] };
  return { error: 'not_found' };
}

/** The raw (still encoded) segments of a request target, or undefined when it cannot match. */
function pathSegments(target: string): string[] | undefined {
  const end = target.search(/[?#]/);
  let path = end === -1 ? target : target.slice(0, end);
  if (!path.startsWith('/')) return undefined;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const segments = path.split('/').slice(1);
  // An empty segment (`//`) names nothing; refusing it keeps `{name}` from ever matching "".
  if (segments.some((segment) => segment === '') && path !== '/') return undefined;
  return segments;
}

function fitTemplate(
  template: string,
  segments: readonly string[],
): { params: Record<string, string>; literals: number } | undefined {
  const parts = template.split('/').slice(1);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  let literals = 0;
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] ?? '';
    const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part)?.[1];
    if (param === undefined) {
      if (part !== segment) return undefined;
      literals += 1;
      continue;
    }
    const value = decodeSegment(segment);
    if (value === undefined) return undefined;
    params[param] = value;
  }
  return { params, literals };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    // A malformed escape (`%zz`) cannot name anything; the caller answers 404.
    if (error instanceof URIError) return undefined;
    throw error;
  }
}
