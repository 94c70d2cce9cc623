import { describe, expect, it } from 'vitest';
import { matchRoute, type HttpMethod, type Route } from '../../../src/api/route.js';

function route(method: HttpMethod, path: string, operationId: string): Route {
  return {
    method,
    path,
    operationId,
    auth: 'operator',
    handler: () => Promise.resolve({ status: 200, body: null }),
  };
}

const routes: Route[] = [
  route('GET', '/api/v1/health', 'getHealth'),
  route('GET', '/api/v1/standing-sessions', 'list'),
  route('POST', '/api/v1/standing-sessions', 'create'),
  route('GET', '/api/v1/standing-sessions/{name}', 'get'),
  route('DELETE', '/api/v1/standing-sessions/{name}', 'delete'),
  route('POST', '/api/v1/standing-sessions/{name}/say', 'say'),
  route('GET', '/api/v1/things/{id}', 'thing'),
  route('GET', '/api/v1/things/new', 'newThing'),
  route('POST', '/api/v1/hooks/{event}', 'hook'),
];

describe('matchRoute', () => {
  const found: [string, string, string, Record<string, string>][] = [
    ['GET', '/api/v1/health', 'getHealth', {}],
    ['GET', '/api/v1/health/', 'getHealth', {}],
    ['GET', '/api/v1/health?verbose=1', 'getHealth', {}],
    ['GET', '/api/v1/health/?x=1#frag', 'getHealth', {}],
    ['GET', '/api/v1/standing-sessions', 'list', {}],
    ['POST', '/api/v1/standing-sessions', 'create', {}],
    ['GET', '/api/v1/standing-sessions/sup', 'get', { name: 'sup' }],
    ['DELETE', '/api/v1/standing-sessions/sup', 'delete', { name: 'sup' }],
    ['GET', '/api/v1/standing-sessions/a%20b', 'get', { name: 'a b' }],
    ['GET', '/api/v1/standing-sessions/%2E%2E%2Fetc', 'get', { name: '../etc' }],
    ['GET', '/api/v1/standing-sessions/caf%C3%A9', 'get', { name: 'café' }],
    ['GET', '/api/v1/standing-sessions/sup?x=%zz', 'get', { name: 'sup' }],
    ['POST', '/api/v1/standing-sessions/sup/say', 'say', { name: 'sup' }],
    ['POST', '/api/v1/standing-sessions/sup/say/', 'say', { name: 'sup' }],
    ['POST', '/api/v1/hooks/Stop', 'hook', { event: 'Stop' }],
    // A literal segment beats a parameter whatever the table order.
    ['GET', '/api/v1/things/new', 'newThing', {}],
    ['GET', '/api/v1/things/old', 'thing', { id: 'old' }],
  ];
  it.each(found)('%s %s → %s', (method, target, operationId, params) => {
    const match = matchRoute(routes, method, target);
    expect(match).toEqual({ route: expect.objectContaining({ operationId }), params });
  });

  const notFound: [string, string][] = [
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v1'],
    ['GET', ''],
    ['GET', 'api/v1/health'],
    ['GET', '/api/v1//health'],
    ['GET', '/api/v1/health//'],
    ['GET', '/api/v1/standing-sessions//say'],
    ['GET', '/api/v1/standing-sessions/sup/extra/more'],
    ['GET', '/API/V1/HEALTH'],
    ['GET', '/api/v1/standing-sessions/%zz'],
    ['GET', '/api/v1/standing-sessions/%E0%A4%A'],
    ['PUT', '/nowhere'],
  ];
  it.each(notFound)('%s %j → not_found', (method, target) => {
    expect(matchRoute(routes, method, target)).toEqual({ error: 'not_found' });
  });

  const wrongMethod: [string, string, HttpMethod[]][] = [
    ['POST', '/api/v1/health', ['GET']],
    ['DELETE', '/api/v1/standing-sessions', ['GET', 'POST']],
    ['POST', '/api/v1/standing-sessions/sup', ['GET', 'DELETE']],
    ['GET', '/api/v1/standing-sessions/sup/say', ['POST']],
    ['PUT', '/api/v1/standing-sessions/sup', ['GET', 'DELETE']],
    ['get', '/api/v1/health', ['GET']],
  ];
  it.each(wrongMethod)('%s %s → method_not_allowed %j', (method, target, allow) => {
    const match = matchRoute(routes, method, target);
    expect(match).toEqual({ error: 'method_not_allowed', allow: expect.any(Array) });
    if ('allow' in match) expect([...match.allow].sort()).toEqual([...allow].sort());
  });

  it('finds nothing in an empty table', () => {
    expect(matchRoute([], 'GET', '/api/v1/health')).toEqual({ error: 'not_found' });
  });
});
