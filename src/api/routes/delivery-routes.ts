import type { DeliveryStatuses } from '../../delivery/delivery-statuses.js';
import { LoopError } from '../../errors.js';
import type { Route } from '../route.js';

/** `GET /api/v1/deliveries/{id}`: the latest outcome of a delivery a say answered early about. */
export function deliveryRoutes(statuses: DeliveryStatuses): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/deliveries/{id}',
      operationId: 'getDelivery',
      auth: 'operator',
      handler: async ({ params }) => {
        const id = params['id'] ?? '';
        const status = statuses.get(id);
        if (!status) {
          throw new LoopError(
            'not_found',
            `no delivery \`${id}\` is known; serve keeps the latest outcomes in memory only, ` +
              'so one from before its last restart is forgotten — see `the-loop status` and the event log',
          );
        }
        return { status: 200, body: status };
      },
    },
  ];
}
