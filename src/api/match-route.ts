import type { HttpMethod, Route } from './route.js';

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
