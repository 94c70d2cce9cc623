import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, toolUse } from '../fakes/fake-anthropic/scripted-answer.js';
import type { RecordedRequest } from '../fakes/fake-anthropic/start-fake-anthropic.js';
import { eventually } from '../helpers/eventually.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { dialogKeyPause } from './claude-dialog-keys.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { eventMatching, startRealClaude, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

interface OpenRequest {
  readonly id: string;
  readonly ref: string;
  readonly tool: string;
  readonly summary: string;
}

/**
 * Permission requests (docs/design.md §14) with the real Claude Code: its PermissionRequest hook, through
 * the shim, reaches serve; a decision from `the-loop permissions` is what Claude Code acts on.
 * What the model receives is read at the fake Messages API: the tool's result after an allow, the
 * denial with its reason after a deny.
 */
describe.skipIf(unavailable !== undefined)('permission requests with the real Claude Code', () => {
  let claude: RealClaude;

  beforeAll(async () => {
    // Short enough for the timeout case to end within the test; the other cases decide at once.
    claude = await startRealClaude({ config: { permissions: { timeoutSeconds: 8 } } });
    const created = await claude.serve.cli(['standing', 'create', 'perm']);
    expect(created.exitCode, created.stderr).toBe(0);
    await waitForTurns(claude.serve, 'standing:perm', 1);
  });

  afterAll(async () => {
    await claude?.dispose();
  });

  const openRequest = (what: string): Promise<OpenRequest> =>
    eventually(
      async () => {
        const listed = await claude.serve.cli(['permissions', '--json']);
        expect(listed.exitCode, listed.stderr).toBe(0);
        return (JSON.parse(listed.stdout) as OpenRequest[])[0];
      },
      { timeoutMs: 60_000, what },
    );

  /** The tool_result block Claude Code sends back for the scripted tool call. */
  const toolResultIn = (request: RecordedRequest): string =>
    JSON.stringify(
      ((request.body as { messages?: { content?: unknown }[] }).messages ?? []).flatMap(
        (message) =>
          Array.isArray(message.content)
            ? (message.content as { type?: string }[]).filter(
                (block) => block.type === 'tool_result',
              )
            : [],
      ),
    );

  const requestAfterTool = (marker: string) =>
    claude.fake.waitForRequest(
      (request) => request.kind === 'turn' && toolResultIn(request).includes(marker),
      { timeoutMs: 60_000, what: 'the request that carries the tool result' },
    );

  it('allow: the tool runs, and the model gets its result', async () => {
    const marker = path.join(claude.work, 'allowed-by-the-loop');
    claude.fake.script(
      toolUse('Bash', {
        command: `touch ${marker}; echo made-${'it'}`,
        description: 'Make a file',
      }),
      text('Made it.'),
    );
    const said = await claude.serve.cli(['standing', 'say', 'perm', 'make the file']);
    expect(said.exitCode, said.stderr).toBe(0);
    const request = await openRequest('the open request');
    expect(request).toMatchObject({ ref: 'standing:perm', tool: 'Bash' });
    expect(request.summary).toContain('touch');
    const allowed = await claude.serve.cli(['permissions', 'allow', request.id]);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    const after = await requestAfterTool('made-it');
    expect(toolResultIn(after)).not.toContain('"is_error":true');
    expect(existsSync(marker)).toBe(true);
    await eventMatching(
      claude,
      (event) => event.event === 'permission.allowed' && event.ref === 'standing:perm',
      'permission.allowed',
    );
  });

  it('deny with a reason: nothing runs, and the model reads the reason', async () => {
    const marker = path.join(claude.work, 'denied-by-the-loop');
    claude.fake.script(
      toolUse('Bash', { command: `touch ${marker}`, description: 'Make a file' }),
      text('Understood.'),
    );
    await waitForTurns(claude.serve, 'standing:perm', 2);
    const said = await claude.serve.cli(['standing', 'say', 'perm', 'try that again']);
    expect(said.exitCode, said.stderr).toBe(0);
    const request = await openRequest('the second request');
    const denied = await claude.serve.cli([
      'permissions',
      'deny',
      request.id,
      '--reason',
      'not on this machine, use the staging box',
    ]);
    expect(denied.exitCode, denied.stderr).toBe(0);
    const after = await requestAfterTool('use the staging box');
    expect(toolResultIn(after)).toContain('not on this machine');
    expect(existsSync(marker)).toBe(false);
  });

  it('a message sent while the dialog is open waits; a key in the terminal ends the request', async () => {
    const marker = path.join(claude.work, 'approved-in-the-terminal');
    claude.fake.script(
      toolUse('Bash', { command: `touch ${marker}`, description: 'Make a file' }),
      text('Done in the terminal.'),
    );
    await waitForTurns(claude.serve, 'standing:perm', 3);
    const said = await claude.serve.cli(['standing', 'say', 'perm', 'make it in the terminal']);
    expect(said.exitCode, said.stderr).toBe(0);
    const request = await openRequest('the terminal request');
    // Typed into the dialog, its Enter would pick "Yes": the-loop holds it instead.
    const held = claude.serve.cli(['standing', 'say', 'perm', 'a message for later']);
    await eventMatching(
      claude,
      (event) => event.event === 'delivery.held' && event.reason === 'permission',
      'delivery.held (permission)',
    );
    expect(existsSync(marker)).toBe(false);
    await dialogKeyPause();
    await execa('tmux', [
      '-L',
      claude.serve.socket,
      'send-keys',
      '-t',
      '=loop-standing-perm:',
      '1',
    ]);
    await eventMatching(
      claude,
      (event) =>
        event.event === 'permission.expired' &&
        event.id === request.id &&
        event.reason === 'terminal',
      'permission.expired (terminal)',
    );
    expect(existsSync(marker)).toBe(true);
    expect((await held).exitCode).toBe(0);
    await claude.requestWith('a message for later');
  });

  it("timeout: no decision leaves Claude Code's own dialog, and nothing is approved", async () => {
    const marker = path.join(claude.work, 'never-decided');
    claude.fake.script(toolUse('Bash', { command: `touch ${marker}`, description: 'Make a file' }));
    // The held message may join the running turn (Claude Code injects it) or get one of its own.
    await waitForTurns(claude.serve, 'standing:perm', 4);
    const said = await claude.serve.cli(['standing', 'say', 'perm', 'one more file']);
    expect(said.exitCode, said.stderr).toBe(0);
    const request = await openRequest('the third request');
    await eventMatching(
      claude,
      (event) =>
        event.event === 'permission.expired' &&
        event.id === request.id &&
        event.reason === 'timeout',
      'permission.expired (timeout)',
      30_000,
    );
    // The dialog is still Claude Code's to answer: it is on screen, and nothing ran.
    const screen = await eventually(
      async () => {
        const captured = await execa('tmux', [
          '-L',
          claude.serve.socket,
          'capture-pane',
          '-p',
          '-t',
          '=loop-standing-perm:',
        ]);
        return /Do you want to proceed\?/.test(captured.stdout) ? captured.stdout : undefined;
      },
      { timeoutMs: 15_000, what: 'the terminal dialog after the timeout' },
    );
    expect(screen).toContain('1. Yes');
    expect(existsSync(marker)).toBe(false);
  });
});
