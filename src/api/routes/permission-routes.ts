import { LoopError } from '../../errors.js';
import type { PermissionRegistry } from '../../permissions/create-permission-registry.js';
import { decisionReply } from '../../permissions/decisions.js';
import {
  parsePermissionId,
  type PermissionSurface,
  type PermissionVerdict,
} from '../../permissions/permission-types.js';
import type { Route } from '../route.js';
import { objectBody } from './standing-routes.js';

const verbs: readonly { verb: PermissionVerdict; operationId: string; past: string }[] = [
  { verb: 'allow', operationId: 'allowPermission', past: 'allowed' },
  { verb: 'allow-always', operationId: 'allowPermissionAlways', past: 'allowed always' },
  { verb: 'deny', operationId: 'denyPermission', past: 'denied' },
];

/**
 * `GET /api/v1/permissions` and the three decisions (docs/design.md §14, §17), for the CLI and the API;
 * the dashboard serves them with `surface: 'dashboard'` (docs/design.md §19).
 */
export function permissionRoutes(
  registry: PermissionRegistry,
  surface: PermissionSurface = 'cli',
): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/permissions',
      operationId: 'listPermissions',
      auth: 'operator',
      handler: async () => ({ status: 200, body: registry.list() }),
    },
    ...verbs.map(({ verb, operationId, past }): Route => ({
      method: 'POST',
      path: `/api/v1/permissions/{id}/${verb}`,
      operationId,
      auth: 'operator',
      refusesSessions: true,
      handler: async ({ params, body }) => {
        const id = parsePermissionId(params['id'] ?? '');
        if (!id) {
          throw new LoopError(
            'bad_request',
            'a permission id is p- and 10 letters or digits 2–7; `the-loop permissions` lists them',
          );
        }
        const input = body === undefined ? {} : objectBody(body);
        const actor =
          typeof input['actor'] === 'string' && input['actor'] ? input['actor'] : 'operator';
        const reason = typeof input['reason'] === 'string' ? input['reason'] : undefined;
        const result = registry.decide(
          id,
          verb,
          { surface, name: actor.slice(0, 64) },
          verb === 'deny' ? reason : undefined,
        );
        const reply = decisionReply(result, id);
        if (!reply.ok) {
          const code =
            result.kind === 'unknown'
              ? 'not_found'
              : result.kind === 'no-always'
                ? 'bad_request'
                : 'conflict';
          throw new LoopError(code, reply.text);
        }
        return { status: 200, body: { id, outcome: past } };
      },
    })),
  ];
}
