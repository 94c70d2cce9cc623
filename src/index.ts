/**
 * The package's entry: `import { connect } from 'the-loop'` (docs/design.md §20, docs/sdk.md).
 * Everything here is public API; the rest of dist/ is not.
 */
export { connect, type ConnectOptions } from './sdk/connect.js';
export type {
  CreateStandingInput,
  Loop,
  PermissionAnswer,
  PostAnswer,
  VerbAnswer,
} from './sdk/create-loop.js';
export type { EventsOptions, LoopEvent } from './sdk/read-events.js';
export { LoopError, isLoopError, errorCodes, type ErrorCode } from './errors.js';
export type { StandingView, StartOutcome } from './standing/standing-types.js';
export type { WorkItemView } from './workitems/workitem-types.js';
export type { SayAnswer } from './delivery/first-answer.js';
export type { DeliveryStatus } from './delivery/delivery-statuses.js';
export type { PermissionView } from './permissions/permission-types.js';
export type { InstanceDescription } from './instance/describe-instance.js';
export type { StatusReport } from './api/routes/status-routes.js';
