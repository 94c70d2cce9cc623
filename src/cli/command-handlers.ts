import type { CommandHandler } from './command-context.js';
import type { CommandId } from './command-specs.js';
import { runConfigCheck, runDoctorCommand, runInit, runManifest } from './commands/run-setup.js';
import { runDashboard, runFleet, runInstance, runStatus } from './commands/run-status.js';
import { runHook } from './commands/run-hook.js';
import { runMcp } from './commands/run-mcp.js';
import { runPermissions } from './commands/run-permissions.js';
import { runPost } from './commands/run-post.js';
import { runReload } from './commands/run-reload.js';
import { runServe } from './commands/run-serve.js';
import {
  runStandingCreate,
  runStandingSay,
  runStandingDelete,
  runStandingGet,
  runStandingList,
  runStandingRestart,
  runStandingStart,
  runStandingStop,
} from './commands/run-standing.js';
import { runWorkItemList, runWorkItemStart, runWorkItemStop } from './commands/run-workitem.js';

/** Which handler runs which command: a table, so adding a command is one line here. */
export const commandHandlers: Readonly<Record<CommandId, CommandHandler>> = {
  serve: runServe,
  status: runStatus,
  instance: runInstance,
  fleet: runFleet,
  'standing list': runStandingList,
  'standing get': runStandingGet,
  'standing create': runStandingCreate,
  'standing delete': runStandingDelete,
  'standing start': runStandingStart,
  'standing stop': runStandingStop,
  'standing restart': runStandingRestart,
  'standing say': runStandingSay,
  post: runPost,
  hook: runHook,
  mcp: runMcp,
  'config check': runConfigCheck,
  reload: runReload,
  manifest: runManifest,
  'workitem list': runWorkItemList,
  'workitem start': runWorkItemStart,
  'workitem stop': runWorkItemStop,
  permissions: runPermissions,
  doctor: runDoctorCommand,
  init: runInit,
  dashboard: runDashboard,
};
