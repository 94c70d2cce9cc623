import type { Config } from '../../config/types.js';
import { LoopError } from '../../errors.js';
import { describeInstance } from '../../instance/describe-instance.js';
import { decideScope } from '../../instance/decide-scope.js';
import { isManaged } from '../../instance/is-managed.js';
import { parseWorkItemRef, workItemRef } from '../../refs.js';
import type { WorkItemService } from '../../workitems/create-workitem-service.js';
import { listManaged, loadManagedFacts } from '../../workitems/load-managed-facts.js';
import type { Route } from '../route.js';
import { objectBody } from './standing-routes.js';

/**
 * The instance and its work items over the control plane. A start from here counts as addressed
 * to this instance (docs/design.md §7.4): on a `locked` instance an unmanaged item is refused, and nothing
 * is recorded or posted.
 */
export function workItemRoutes(options: {
  readonly config: Config;
  readonly workItems: WorkItemService;
}): Route[] {
  const { config, workItems } = options;
  const itemOf = (body: unknown) => {
    const ref = objectBody(body)['ref'];
    const item = typeof ref === 'string' ? parseWorkItemRef(ref) : undefined;
    if (!item) {
      throw new LoopError(
        'invalid_ref',
        'send {"ref": "github:owner/repo#12"} or an issue or pull request URL',
      );
    }
    return item;
  };
  return [
    {
      method: 'GET',
      path: '/api/v1/instance',
      operationId: 'getInstance',
      auth: 'operator',
      handler: async () => {
        const facts = await loadManagedFacts(config, workItems);
        return {
          status: 200,
          body: describeInstance(
            config.instance,
            listManaged(config, facts),
            config.instanceWarnings,
          ),
        };
      },
    },
    {
      method: 'GET',
      path: '/api/v1/work-items',
      operationId: 'listWorkItems',
      auth: 'operator',
      handler: async () => ({ status: 200, body: { workItems: await workItems.list() } }),
    },
    {
      method: 'POST',
      path: '/api/v1/work-items/start',
      operationId: 'startWorkItem',
      auth: 'operator',
      handler: async ({ body }) => {
        const item = itemOf(body);
        const address = config.instance.name
          ? { kind: 'addressed' as const, name: config.instance.name }
          : { kind: 'none' as const };
        const managed = isManaged(
          item,
          await loadManagedFacts(config, workItems),
          config.instance.name,
        );
        const decision = decideScope(config.instance, address, managed.managed);
        if (!decision.acts) {
          throw new LoopError(
            'forbidden',
            `this instance (${config.instance.scope.mode}) does not take ${workItemRef(item)}: ${decision.outcome}; ` +
              'declare it in instance.scope.workItems to let this instance start it',
          );
        }
        return { status: 200, body: await workItems.start(item, 'operator') };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/work-items/stop',
      operationId: 'stopWorkItem',
      auth: 'operator',
      handler: async ({ body }) => ({ status: 200, body: await workItems.stop(itemOf(body)) }),
    },
  ];
}
