/** A delivery's latest outcome, as `GET /api/v1/deliveries/{id}` shows it (docs/design.md §17). */
export type DeliveryOutcome =
  'pending' | 'queued' | 'held' | 'delivered' | 'unconfirmed' | 'failed';

export interface DeliveryStatus {
  readonly deliveryId: string;
  readonly ref: string;
  readonly outcome: DeliveryOutcome;
  readonly reason?: string;
  readonly code?: string;
  readonly updatedAt: string;
}

export interface DeliveryStatuses {
  update(status: Omit<DeliveryStatus, 'updatedAt'>): void;
  get(deliveryId: string): DeliveryStatus | undefined;
}

/**
 * In memory, bounded: a sender asks about its delivery soon after sending it. The oldest entries
 * go first once `limit` is reached; a serve restart forgets them all (the answer then says so).
 */
export function createDeliveryStatuses(
  options: { readonly limit?: number; readonly clock?: () => Date } = {},
): DeliveryStatuses {
  const limit = options.limit ?? 10_000;
  const clock = options.clock ?? (() => new Date());
  const entries = new Map<string, DeliveryStatus>();
  return {
    update(status) {
      entries.delete(status.deliveryId);
      entries.set(status.deliveryId, { ...status, updatedAt: clock().toISOString() });
      while (entries.size > limit) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    get: (deliveryId) => entries.get(deliveryId),
  };
}
