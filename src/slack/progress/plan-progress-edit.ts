/** What to do about a new state of a turn's status message. */
export type ProgressEditPlan =
  | { readonly kind: 'send' }
  | { readonly kind: 'wait'; readonly ms: number }
  /** An edit is already due; it sends whatever the state is then, so this one folds into it. */
  | { readonly kind: 'coalesce' };

/**
 * Pacing for one status message: at most one edit per `intervalMs` (docs/design.md §15), and while an
 * edit is due the newer states fold into it, so the latest state wins and none queue up.
 */
export function planProgressEdit(input: {
  readonly now: number;
  /** When the message was last posted or edited; undefined: never. */
  readonly lastSentAt: number | undefined;
  readonly intervalMs: number;
  /** An edit is already scheduled or waiting in the message's queue. */
  readonly editDue: boolean;
}): ProgressEditPlan {
  if (input.editDue) return { kind: 'coalesce' };
  if (input.lastSentAt === undefined) return { kind: 'send' };
  const ms = input.lastSentAt + input.intervalMs - input.now;
  return ms > 0 ? { kind: 'wait', ms } : { kind: 'send' };
}
