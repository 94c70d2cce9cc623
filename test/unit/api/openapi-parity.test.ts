import { describe, expect, it } from 'vitest';
import type { Route } from '../../../src/api/route.js';
import { expectRoutesMatchOpenApi } from '../../helpers/openapi-parity.js';

const stub: Route['handler'] = () => Promise.resolve({ status: 200, body: {} });
const base = '/api/v1/standing-sessions';

/** Every operation of docs/design.md §3.5, as the real table must serve them. */
const allRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/work-items',
    operationId: 'listWorkItems',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: '/api/v1/work-items/start',
    operationId: 'startWorkItem',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: '/api/v1/work-items/stop',
    operationId: 'stopWorkItem',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/fleet',
    operationId: 'getFleet',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/health',
    operationId: 'getHealth',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/status',
    operationId: 'getStatus',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/instance',
    operationId: 'getInstance',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: '/api/v1/reload',
    operationId: 'reloadConfig',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/stream',
    operationId: 'streamEvents',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: base,
    operationId: 'listStandingSessions',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: `${base}/{name}`,
    operationId: 'getStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: base,
    operationId: 'createStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'DELETE',
    path: `${base}/{name}`,
    operationId: 'deleteStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: `${base}/{name}/start`,
    operationId: 'startStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: `${base}/{name}/stop`,
    operationId: 'stopStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: `${base}/{name}/restart`,
    operationId: 'restartStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: `${base}/{name}/say`,
    operationId: 'sayToStandingSession',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: '/api/v1/post',
    operationId: 'postAsSession',
    auth: 'session',
    handler: stub,
  },
  {
    method: 'POST',
    path: '/api/v1/hooks/{event}',
    operationId: 'receiveHook',
    auth: 'session',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/deliveries/{id}',
    operationId: 'getDelivery',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'POST',
    path: '/api/v1/dashboard/sign-in',
    operationId: 'createDashboardSignIn',
    auth: 'operator',
    handler: stub,
  },
  {
    method: 'GET',
    path: '/api/v1/permissions',
    operationId: 'listPermissions',
    auth: 'operator',
    handler: stub,
  },
  ...(
    [
      ['allow', 'allowPermission'],
      ['allow-always', 'allowPermissionAlways'],
      ['deny', 'denyPermission'],
    ] as const
  ).map(([verb, operationId]): Route => ({
    method: 'POST',
    path: `/api/v1/permissions/{id}/${verb}`,
    operationId,
    auth: 'operator',
    handler: stub,
  })),
];

function replace(operationId: string, change: Partial<Route>): Route[] {
  return allRoutes.map((route) =>
    route.operationId === operationId ? { ...route, ...change } : route,
  );
}

describe('expectRoutesMatchOpenApi', () => {
  it('passes for a table of all 25 operations, in any order', async () => {
    expect(allRoutes).toHaveLength(25);
    await expectRoutesMatchOpenApi(allRoutes);
    await expectRoutesMatchOpenApi([...allRoutes].reverse());
  });

  const broken: [string, Route[]][] = [
    ['a missing route', allRoutes.filter((route) => route.operationId !== 'receiveHook')],
    [
      'an extra route',
      [
        ...allRoutes,
        {
          method: 'POST',
          path: '/api/v1/debug',
          operationId: 'debug',
          auth: 'operator',
          handler: stub,
        },
      ],
    ],
    ['a renamed operationId', replace('getStatus', { operationId: 'status' })],
    ['a renamed path', replace('sayToStandingSession', { path: `${base}/{name}/tell` })],
    ['a renamed path parameter', replace('getStandingSession', { path: `${base}/{id}` })],
    ['a changed method', replace('deleteStandingSession', { method: 'POST' })],
    ['a session route served as operator', replace('postAsSession', { auth: 'operator' })],
    ['an operator route served as session', replace('sayToStandingSession', { auth: 'session' })],
    ['a duplicated route', [...allRoutes, allRoutes[0] as Route]],
  ];
  it.each(broken)('fails for %s', async (_label, routes) => {
    await expect(expectRoutesMatchOpenApi(routes)).rejects.toThrow();
  });
});
