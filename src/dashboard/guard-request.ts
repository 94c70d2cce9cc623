/**
 * What the dashboard does with a request before any page or API handler sees it
 * (docs/design.md §19, docs/dashboard.md): a pure decision over the request's method, path and
 * headers, and whether its cookie or bearer token is good.
 */

export interface GuardInput {
  readonly method: string;
  readonly path: string;
  /** The `Host` header as sent; undefined when missing. */
  readonly host: string | undefined;
  /** The `Origin` header as sent; undefined when missing. */
  readonly origin: string | undefined;
  readonly cookie: 'none' | 'valid' | 'invalid';
  readonly bearer: 'none' | 'valid' | 'invalid';
  /** Host header values this dashboard answers, lower case. */
  readonly allowedHosts: ReadonlySet<string>;
}

export type GuardVerdict =
  /** 421: another name for this address (DNS rebinding) or no Host at all. */
  | { readonly kind: 'misdirected' }
  /** 403: a state change without a same-origin Origin (CSRF). */
  | { readonly kind: 'cross-origin' }
  /** 302 to /login: a page without a signed-in cookie. */
  | { readonly kind: 'login' }
  /** 401: an API call with neither a good cookie nor a good bearer token. */
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'pass'; readonly via: 'public' | 'cookie' | 'bearer' };

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths anyone may ask for: the sign-in page and the static assets it needs. */
export function isPublicPath(path: string): boolean {
  return path === '/login' || path.startsWith('/assets/');
}

export function isApiPath(path: string): boolean {
  return path === '/api/v1' || path.startsWith('/api/v1/') || path.startsWith('/ui/');
}

export function guardRequest(input: GuardInput): GuardVerdict {
  const host = input.host?.toLowerCase();
  if (host === undefined || !input.allowedHosts.has(host)) return { kind: 'misdirected' };
  // A bearer token is never sent by a browser on its own: a request carrying one is a script's,
  // and needs no Origin. A wrong one is refused, whatever cookie comes with it.
  if (input.bearer === 'valid') return { kind: 'pass', via: 'bearer' };
  if (input.bearer === 'invalid') return { kind: 'unauthorized' };
  const sameOrigin = input.origin === `http://${host}` || input.origin === `https://${host}`;
  if (!safeMethods.has(input.method) && !sameOrigin) {
    return { kind: 'cross-origin' };
  }
  if (isPublicPath(input.path)) return { kind: 'pass', via: 'public' };
  if (input.cookie === 'valid') return { kind: 'pass', via: 'cookie' };
  return isApiPath(input.path) ? { kind: 'unauthorized' } : { kind: 'login' };
}

/** The Host values a dashboard listening on `host:port` answers (docs/design.md §19). */
export function allowedHostSet(
  listen: { readonly host: string; readonly port: number },
  extra: readonly string[],
): Set<string> {
  const hosts = [`${listen.host}:${listen.port}`, `localhost:${listen.port}`, ...extra];
  return new Set(hosts.map((host) => host.toLowerCase()));
}
