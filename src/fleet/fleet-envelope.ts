import type { RoutedKind } from './slack-owner-query.js';

/** What travels on `loop.in.<owner>` and `loop.gh`: an envelope as its receiver took it in. */
export interface FleetEnvelope {
  /** The `Nats-Msg-Id`: Slack's event id or trigger id, GitHub's delivery id. */
  readonly id: string;
  readonly source: 'slack' | 'github';
  /** Slack: the Socket Mode type (`events_api`, `slash_commands`, `interactive`); GitHub: the event. */
  readonly type: string;
  readonly kind: RoutedKind;
  readonly body: Record<string, unknown>;
  /** The instance that received it. */
  readonly from: string;
  readonly receivedAt: number;
}

/** The instance side that handles an envelope routed to it, as if it had received it itself. */
export interface FleetTarget {
  /** Resolves once the envelope is recorded (the inbox holds it) or handled. */
  deliver(envelope: FleetEnvelope): Promise<void>;
}

export interface SlackFleetTarget extends FleetTarget {
  /** A reply in a thread, posted by this instance (the offline notice). */
  notice(channel: string, threadTs: string, text: string): Promise<void>;
}

export function parseFleetEnvelope(data: Uint8Array): FleetEnvelope | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(data)) as Partial<FleetEnvelope>;
    if (typeof value.id !== 'string' || typeof value.type !== 'string') return undefined;
    if (value.source !== 'slack' && value.source !== 'github') return undefined;
    if (typeof value.body !== 'object' || value.body === null) return undefined;
    return value as FleetEnvelope;
  } catch {
    return undefined;
  }
}

export function isFleetEnvelope(value: unknown): value is FleetEnvelope {
  return parseFleetEnvelope(new TextEncoder().encode(JSON.stringify(value))) !== undefined;
}
