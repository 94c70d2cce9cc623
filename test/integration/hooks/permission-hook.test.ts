import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/create-api-client.js';
import { createControlServer, type ControlServer } from '../../../src/api/create-control-server.js';
import { permissionRoutes } from '../../../src/api/routes/permission-routes.js';
import { sessionRoutes } from '../../../src/api/routes/session-routes.js';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import {
  createPermissionRegistry,
  type PermissionRegistry,
} from '../../../src/permissions/create-permission-registry.js';
import type { PermissionOutcome } from '../../../src/permissions/permission-types.js';
import { createMemoryEventLog } from '../../helpers/memory-event-log.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { eventually } from '../../helpers/eventually.js';
import { binPath } from '../../helpers/run-serve.js';

const token = 'session-token-1';
const ref = 'standing:sup';
const payload = {
  session_id: 's-1',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
  permission_suggestions: [
    {
      type: 'addRules',
      rules: [{ toolName: 'Bash', ruleContent: 'rm -rf build' }],
      behavior: 'allow',
      destination: 'localSettings',
    },
  ],
};

/**
 * serve's PermissionRequest route over the real control socket, called by the real
 * `the-loop hook PermissionRequest` (from dist/: run `npm run build` first), decided through the API.
 */
describe('the PermissionRequest hook', () => {
  let dir: string;
  let socketPath: string;
  let server: ControlServer;
  let registry: PermissionRegistry;
  const posted: string[] = [];
  const settled: PermissionOutcome[] = [];

  const start = async (timeoutMs = 60_000) => {
    registry = createPermissionRegistry({
      timeoutMs,
      events: createMemoryEventLog(),
      logger: captureLogger().logger,
    });
    registry.onChange((change) => {
      if (change.kind === 'settled') settled.push(change.outcome);
    });
    server = createControlServer({
      routes: [
        ...sessionRoutes({
          directory: {
            sessionForToken: async (given) =>
              given === token ? { ref, tmuxName: 'loop-standing-sup' } : undefined,
          },
          states: createAgentStates(),
          confirmations: createConfirmationTracker(),
          replies: {
            post: async (_ref, text) => {
              posted.push(text);
              return { targets: [], failed: [] };
            },
          },
          permissions: registry,
          logger: captureLogger().logger,
          projectsDir: socketPath,
          maxPostFileBytes: 1024,
        }),
        ...permissionRoutes(registry),
      ],
      logger: captureLogger().logger,
      socketPath,
    });
    await server.start();
  };

  const runHook = (input: unknown = payload) =>
    execa(process.execPath, [binPath, 'hook', 'PermissionRequest', '--wait', '60'], {
      env: { THE_LOOP_SESSION_TOKEN: token, THE_LOOP_SOCKET: socketPath, PATH: process.env.PATH },
      input: JSON.stringify(input),
      reject: false,
    });
  const api = () => createApiClient({ socketPath, timeoutMs: 5_000 });
  const openId = () =>
    eventually(async () => registry.list()[0]?.id, { timeoutMs: 10_000, what: 'an open request' });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loop-perm-'));
    socketPath = join(dir, 'control.sock');
    posted.length = 0;
    settled.length = 0;
  });
  afterEach(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints allow once a person allows it', async () => {
    await start();
    const hook = runHook();
    const id = await openId();
    const listed = await api().request<unknown[]>('GET', '/api/v1/permissions');
    expect(listed.body).toEqual([
      expect.objectContaining({
        id,
        ref,
        tool: 'Bash',
        summary: '$ rm -rf build',
        canAlways: true,
      }),
    ]);
    const allowed = await api().request('POST', `/api/v1/permissions/${id}/allow`, {
      actor: 'ana',
    });
    expect(allowed).toMatchObject({ status: 200, body: { id, outcome: 'allowed' } });
    const result = await hook;
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    const late = await api().request('POST', `/api/v1/permissions/${id}/deny`, {});
    expect(late.status).toBe(409);
    expect(JSON.stringify(late.body)).toContain('already allowed by ana from the command line');
  });

  it('hands Claude its own suggestions back for allow always', async () => {
    await start();
    const hook = runHook();
    const id = await openId();
    await api().request('POST', `/api/v1/permissions/${id}/allow-always`, {});
    const output = JSON.parse((await hook).stdout) as Record<string, never>;
    expect(output).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedPermissions: payload.permission_suggestions },
      },
    });
  });

  it('refuses allow always when Claude offered no suggestion, and keeps the request open', async () => {
    await start();
    const hook = runHook({ ...payload, permission_suggestions: undefined });
    const id = await openId();
    const refused = await api().request('POST', `/api/v1/permissions/${id}/allow-always`, {});
    expect(refused.status).toBe(400);
    expect(registry.hasOpenRequest(ref)).toBe(true);
    await api().request('POST', `/api/v1/permissions/${id}/deny`, { reason: 'not now' });
    expect(JSON.parse((await hook).stdout)).toMatchObject({
      hookSpecificOutput: {
        decision: {
          behavior: 'deny',
          message: 'Denied by operator from the command line: not now',
        },
      },
    });
  });

  it('prints nothing when no one decides in time, so Claude Code keeps its own dialog', async () => {
    await start(300);
    const result = await runHook();
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(settled).toEqual([expect.objectContaining({ kind: 'expired', reason: 'timeout' })]);
  });

  it('ends the request as answered in the terminal when Claude Code kills the hook', async () => {
    await start();
    const hook = runHook();
    const id = await openId();
    hook.kill('SIGKILL');
    await hook;
    await eventually(async () => settled.length === 1, { timeoutMs: 5_000, what: 'expiry' });
    expect(settled[0]).toMatchObject({ kind: 'expired', reason: 'terminal' });
    const late = await api().request('POST', `/api/v1/permissions/${id}/allow`, {});
    expect(late.status).toBe(409);
    expect(JSON.stringify(late.body)).toContain('answered in the terminal');
  });

  it('ends the request as answered in the terminal when the turn ends (Claude Code keeps the hook)', async () => {
    await start();
    const hook = runHook();
    const id = await openId();
    const stop = { hook_event_name: 'Stop', last_assistant_message: 'done' };
    await api().request('POST', '/api/v1/hooks/Stop', stop, { 'X-The-Loop-Session-Token': token });
    await eventually(async () => settled.length === 1, { timeoutMs: 5_000, what: 'expiry' });
    expect(settled[0]).toMatchObject({ kind: 'expired', reason: 'terminal' });
    // The hook gets no decision: nothing for Claude Code to act on.
    const result = await hook;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    const late = await api().request('POST', `/api/v1/permissions/${id}/allow`, {});
    expect(late.status).toBe(409);
  });

  it('does not post the permission_prompt notice while a request is open', async () => {
    await start();
    const hook = runHook();
    const id = await openId();
    const notice = {
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission to use Bash',
    };
    const headers = { 'X-The-Loop-Session-Token': token };
    await api().request('POST', '/api/v1/hooks/Notification', notice, headers);
    expect(posted).toEqual([]);
    await api().request('POST', `/api/v1/permissions/${id}/allow`, {});
    await hook;
    await api().request('POST', '/api/v1/hooks/Notification', notice, headers);
    expect(posted).toHaveLength(1);
  });

  it('refuses an id that is not one', async () => {
    await start();
    const bad = await api().request('POST', '/api/v1/permissions/p-0000000000/allow', {});
    expect(bad.status).toBe(400);
    const unknown = await api().request('POST', '/api/v1/permissions/p-aaaaaaaaaa/allow', {});
    expect(unknown.status).toBe(404);
  });
});
