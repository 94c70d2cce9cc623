import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { createControlServer, type ControlServer } from '../../src/api/create-control-server.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/log/create-logger.js';
import { createPermissionRegistry } from '../../src/permissions/create-permission-registry.js';
import { hookDecision } from '../../src/hooks/hook-answer.js';
import { permissionRequestMessage } from '../../src/slack/permission-blocks.js';
import { captureLogger } from '../helpers/capture-logger.js';
import { createMemoryEventLog } from '../helpers/memory-event-log.js';
import { binPath } from '../helpers/run-serve.js';

const dana = { surface: 'slack', name: '@dana' } as const;
const rule = (n: number) => ({
  type: 'addRules',
  behavior: 'allow',
  destination: 'localSettings',
  rules: [{ toolName: 'Bash', ruleContent: `npm run task-${n}` }],
});
const setMode = (mode: string) => ({ type: 'setMode', mode, destination: 'session' });

/** Allow always with `suggestions`: what the approver is shown, and what Claude Code is handed. */
function allowAlways(suggestions: unknown[], alwaysModes: string[] = []) {
  const registry = createPermissionRegistry({
    timeoutMs: 600_000,
    events: createMemoryEventLog(),
    logger: captureLogger().logger,
    alwaysModes,
  });
  const { request } = registry.open('standing:sup', { tool: 'Bash', toolInput: {}, suggestions });
  const shown = JSON.stringify(permissionRequestMessage(request).blocks);
  const result = registry.decide(request.id, 'allow-always', dana);
  const decision =
    result.kind === 'decided'
      ? hookDecision(request, { kind: 'decided', verdict: 'allow-always', decider: dana, at: '' })
      : undefined;
  const output = decision?.['hookSpecificOutput'] as
    { decision: { updatedPermissions?: unknown[] } } | undefined;
  return { request, shown, result, applied: output?.decision.updatedPermissions };
}

describe('"Allow always" applies only what the approver saw (docs/design.md §18)', () => {
  it('lists all eleven changes and never applies an eleventh switching to bypassPermissions', () => {
    const suggestions = [
      ...Array.from({ length: 10 }, (_, n) => rule(n)),
      setMode('bypassPermissions'),
    ];
    const { request, shown, applied } = allowAlways(suggestions, ['bypassPermissions']);
    expect(request.alwaysChanges).toHaveLength(11);
    for (let n = 0; n < 10; n += 1) expect(shown).toContain(`npm run task-${n}`);
    expect(shown).toMatch(/NOT APPLIED: switch the permission mode to bypassPermissions/);
    expect(applied).toEqual(suggestions.slice(0, 10));
  });

  it('applies a mode change only when permissions.alwaysModes lists the mode', () => {
    const suggestions = [rule(1), setMode('acceptEdits')];
    expect(allowAlways(suggestions).applied).toEqual([rule(1)]);
    expect(allowAlways(suggestions).shown).toContain('not in permissions.alwaysModes');
    expect(allowAlways(suggestions, ['acceptEdits']).applied).toEqual(suggestions);
  });

  it('offers no "Allow always" when nothing it would apply can be applied', () => {
    const { request, shown, result } = allowAlways([setMode('bypassPermissions')]);
    expect(request.canAlways).toBe(false);
    expect(shown).not.toContain('permission_allow_always');
    expect(shown).toContain('NOT APPLIED');
    expect(result.kind).toBe('no-always');
  });

  it('lists every change past ten, and does not apply what one message cannot show', () => {
    const suggestions = Array.from({ length: 45 }, (_, n) => rule(n));
    const { request, applied, shown } = allowAlways(suggestions);
    expect(shown).toContain('npm run task-39');
    expect(shown).toContain('5 more changes');
    expect(applied).toHaveLength(request.alwaysChanges.length - 1);
  });
});

describe('agents never decide permissions', () => {
  let server: ControlServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
    server = undefined;
    dir = undefined;
  });

  it.each([['THE_LOOP_SESSION_TOKEN'], ['THE_LOOP_SESSION']])(
    '`the-loop permissions allow|deny` refuses when %s is set, naming why',
    async (variable) => {
      for (const verb of ['allow', 'allow-always', 'deny']) {
        const result = await execa(
          process.execPath,
          [binPath, 'permissions', verb, 'p-aaaaaaaaaa'],
          { env: { PATH: process.env['PATH'] ?? '', [variable]: 'x' }, reject: false },
        );
        expect(result.exitCode, verb).toBe(1);
        expect(String(result.stderr)).toContain(`inside a session (${variable} is set)`);
      }
    },
  );

  it('no session-token route decides, and the decision routes refuse a session token', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-decide-'));
    await writeFile(
      path.join(dir, 'config.yaml'),
      'state: { root: state }\nslack: { enabled: false }\n',
    );
    const app = await createApp({
      config: await loadConfig(path.join(dir, 'config.yaml')),
      env: {},
      logger: silentLogger(),
      loopCommand: ['the-loop'],
      version: 'test',
    });
    const sessionRoutes = app.routes.filter((route) => route.auth === 'session');
    expect(sessionRoutes.map((route) => route.operationId).sort()).toEqual([
      'postAsSession',
      'receiveHook',
    ]);
    const socketPath = path.join(dir, 'api.sock');
    server = createControlServer({ routes: app.routes, logger: silentLogger(), socketPath });
    await server.start();
    const client = createApiClient({ socketPath });
    for (const verb of ['allow', 'allow-always', 'deny']) {
      const route = `/api/v1/permissions/p-aaaaaaaaaa/${verb}`;
      const asSession = await client.request(
        'POST',
        route,
        {},
        { 'X-The-Loop-Session-Token': 't' },
      );
      expect(asSession.status, verb).toBe(403);
      // Without the header it reaches the registry, which knows no such request.
      expect((await client.request('POST', route, {})).status, verb).toBe(404);
    }
  });
});
