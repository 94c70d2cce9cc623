import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { standingTarget } from '../../src/refs.js';
import { text, toolUse } from '../fakes/fake-anthropic/scripted-answer.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { realTierUnavailable } from './real-tier-availability.js';
import {
  deliveryIdOf,
  eventMatching,
  finalOutcome,
  startRealClaude,
  userTexts,
  type RealClaude,
} from './start-real-claude.js';
import { startDialogFacts } from './claude-dialog-keys.js';

const unavailable = realTierUnavailable();

/** A promise a test settles when it wants a slow scripted turn to go on. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const lastPrompt = (texts: readonly string[]) => texts.at(-1) ?? '';

/**
 * Issue 11's mismatches, each under `the-loop serve` with the real Claude Code (the fast twin of
 * each runs against the fake agent: docs/claude-code.md has the table). One session, `sup`, in a
 * trusted folder takes the tests in order; each waits for its turns to end before the next.
 */
describe.skipIf(unavailable !== undefined)('the-loop delivering to the real Claude Code', () => {
  let claude: RealClaude;
  // Each test ends once the agent is idle again, so the next one's script is not taken by a turn
  // still running: the last `agent.state` change of `sup` is to idle.
  const settled = () => waitForTurns(claude.serve, 'standing:sup', 0);
  const say = (message: string) =>
    claude.serve.cli(['standing', 'say', 'sup', '-'], { input: message, env: { USER: 'ana' } });

  beforeAll(async () => {
    // A short start-up deadline, so the blocked test shows a dialog outlasting it.
    claude = await startRealClaude({ delivery: { readyTimeoutMs: 8_000 } });
    const created = await claude.serve.cli(['standing', 'create', 'sup']);
    expect(created.exitCode, created.stderr).toBe(0);
    await waitForTurns(claude.serve, 'standing:sup', 1);
  });

  afterAll(async () => {
    await claude?.dispose();
  });

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const tail = (await claude.events()).slice(-16).map((event) => JSON.stringify(event));
    const screens = await Promise.all(
      ['sup', 'guard'].map(
        async (name) => `--- ${name}\n${await claude.screen(name).catch(() => '')}`,
      ),
    );
    process.stderr.write(`\n${screens.join('\n')}\n--- events\n${tail.join('\n')}\n`);
  });

  it('9: hooks run the curl shim, and serve hears each one (the say is confirmed by UserPromptSubmit)', async () => {
    const settings = JSON.parse(
      await readFile(
        path.join(claude.serve.stateRoot, 'harness', `${standingTarget('sup')}.settings.json`),
        'utf8',
      ),
    ) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const commands = Object.values(settings.hooks).flatMap((groups) =>
      groups.flatMap((group) => group.hooks.map((hook) => hook.command)),
    );
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).toMatch(/^'[^']*\/bin\/the-loop-hook' /);
    const said = await say('are the hooks fast?');
    expect(said.stdout, said.stderr).toMatch(/^delivered to sup/);
    await claude.requestWith('are the hooks fast?');
    await settled();
    for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop']) {
      expect(claude.serve.output()).toContain(`"path":"/api/v1/hooks/${event}"`);
    }
  });

  it('3: a tab, which Claude Code turns into four spaces, is still confirmed (by its tag)', async () => {
    const said = await say('col1\tcol2');
    expect(said.stdout, said.stderr).toMatch(/^delivered to sup/);
    const request = await claude.requestWith('col1    col2');
    expect(lastPrompt(userTexts(request))).toMatch(/^\[cli · ana · [0-9a-f]{4}\]\n\ncol1 {4}col2$/);
    await settled();
  });

  it('2: a message sent while a turn runs is queued at once (no hold) and confirmed when taken', async () => {
    const slow = gate();
    claude.fake.script(text('Slow answer.', { until: slow.promise }), text('Then the rest.'));
    const first = await say('a slow turn');
    expect(first.stdout, first.stderr).toMatch(/^delivered to sup/);
    await claude.requestWith('a slow turn');
    const started = Date.now();
    const queued = await say('typed while busy');
    const second = await say('typed while busy, again');
    // The old way held the session's queue 10 s per message before calling it unconfirmed.
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(queued.stdout, queued.stderr).toMatch(
      /^queued: sup takes it when its running turn ends/,
    );
    expect(second.stdout, second.stderr).toMatch(
      /^queued: sup takes it when its running turn ends/,
    );
    expect(
      claude.fake.requests.some((r) => userTexts(r).some((t) => t.includes('typed while busy'))),
    ).toBe(false);
    slow.open();
    expect(await finalOutcome(claude, deliveryIdOf(queued))).toBe('delivery.delivered');
    expect(await finalOutcome(claude, deliveryIdOf(second))).toBe('delivery.delivered');
    // Claude Code merges what waited into one turn.
    const merged = await claude.requestWith('typed while busy, again');
    expect(userTexts(merged).filter((t) => t.includes('typed while busy'))).toHaveLength(2);
    // Wait for the merged turn's own answer too, not only for idle: the next test's script must
    // not be taken by it (2.1.332 starts it with no UserPromptSubmit; the agent state now keeps it
    // busy, test "10", FINDINGS.md (h)).
    await eventMatching(
      claude,
      (event) =>
        event.event === 'agent.posted' &&
        event.ref === 'standing:sup' &&
        event.bytes === Buffer.byteLength('Then the rest.'),
      "the merged turn's answer posted",
    );
    await settled();
  });

  // 2.1.332 fires a queued message's UserPromptSubmit at once and starts the merged turn after
  // the running one's Stop with none (test/real/FINDINGS.md (h)): the session must still be busy
  // then, so a message said meanwhile is reported queued, not delivered. Same on 2.1.197, where
  // the queued message's UserPromptSubmit after the Stop marks the turn.
  it('10: while the merged turn of queued messages runs the session is busy, and a message said then is queued', async () => {
    const slow = gate();
    const merged = gate();
    claude.fake.script(
      text('Slow one.', { until: slow.promise }),
      text('Merged one.', { until: merged.promise }),
      text('The third.'),
    );
    const first = await say('a slow one');
    expect(first.stdout, first.stderr).toMatch(/^delivered to sup/);
    await claude.requestWith('a slow one');
    const queued = await say('queued behind it');
    expect(queued.stdout, queued.stderr).toMatch(/^queued: sup takes it/);
    slow.open();
    await claude.requestWith('queued behind it');
    await eventMatching(
      claude,
      (event) =>
        event.event === 'agent.posted' &&
        event.ref === 'standing:sup' &&
        event.bytes === Buffer.byteLength('Slow one.'),
      "the slow turn's answer posted",
    );
    const got = await claude.serve.cli(['standing', 'get', 'sup', '--json']);
    expect((JSON.parse(got.stdout) as { agentState?: string }).agentState).toBe('busy');
    const during = await say('said during the merged turn');
    expect(during.stdout, during.stderr).toMatch(/^queued: sup takes it/);
    merged.open();
    expect(await finalOutcome(claude, deliveryIdOf(queued))).toBe('delivery.delivered');
    expect(await finalOutcome(claude, deliveryIdOf(during))).toBe('delivery.delivered');
    await eventMatching(
      claude,
      (event) =>
        event.event === 'agent.posted' &&
        event.ref === 'standing:sup' &&
        event.bytes === Buffer.byteLength('The third.'),
      "the last turn's answer posted",
    );
    await settled();
  });

  it('4: after an Escape the prompt Claude Code puts back is cleared, not sent with the next message', async () => {
    const never = gate();
    claude.fake.script(text('never sent', { until: never.promise }));
    const first = await say('interrupt me');
    expect(first.stdout, first.stderr).toMatch(/^delivered to sup/);
    await claude.requestWith('interrupt me');
    // A person attached presses Escape: Claude Code interrupts and restores the prompt.
    await claude.keys('sup', 'Escape');
    await claude.waitForScreen('sup', /^❯\u00a0\[cli · ana · [0-9a-f]{4}\]$/m);
    const next = await say('after the interrupt');
    expect(next.stdout, next.stderr).toMatch(/^delivered to sup/);
    const request = await claude.requestWith('after the interrupt');
    expect(lastPrompt(userTexts(request))).toMatch(
      /^\[cli · ana · [0-9a-f]{4}\]\n\nafter the interrupt$/,
    );
    expect(
      userTexts(request).some(
        (t) => t.includes('interrupt me\n') || t.endsWith('interrupt meafter'),
      ),
    ).toBe(false);
    never.open();
    await settled();
  });

  it('1: a message sent while a permission dialog is open is held, never approves the tool, and goes in after', async () => {
    const marker = path.join(claude.work, 'made-by-the-tool');
    claude.fake.script(
      toolUse('Bash', { command: `touch ${marker}`, description: 'Make a file' }),
      text('Made it.'),
    );
    const ask = await say('make the file');
    expect(ask.stdout, ask.stderr).toMatch(/^delivered to sup/);
    await claude.waitForScreen('sup', /Do you want to proceed\?/);
    const during = await say('sent while the dialog is open');
    expect(during.stdout, during.stderr).toMatch(
      /^held: the agent is waiting for a permission decision/,
    );
    await eventMatching(
      claude,
      (event) =>
        event.event === 'delivery.held' &&
        event['deliveryId'] === deliveryIdOf(during) &&
        event['reason'] === 'permission',
      'delivery.held (permission)',
    );
    // Held, not typed: the dialog is still open and the tool has not run.
    expect(await claude.screen('sup')).toMatch(/Do you want to proceed\?/);
    expect(existsSync(marker)).toBe(false);
    // A person answers in the terminal; then the held message goes in.
    await claude.keys('sup', '1');
    expect(await finalOutcome(claude, deliveryIdOf(during))).toBe('delivery.delivered');
    expect(existsSync(marker)).toBe(true);
    const request = await claude.requestWith('sent while the dialog is open');
    expect(lastPrompt(userTexts(request))).toMatch(/\n\nsent while the dialog is open$/);
    await settled();
  });

  it('8: the agent runs `the-loop post` without asking (the allow rule), and the post arrives', async () => {
    claude.fake.script(
      toolUse('Bash', { command: 'the-loop post "posted by the tool"', description: 'Post' }),
      text('Posted.'),
    );
    const since = (await claude.events()).length;
    const said = await say('post something');
    expect(said.stdout, said.stderr).toMatch(/^delivered to sup/);
    await eventMatching(
      claude,
      (event) =>
        event.event === 'agent.posted' &&
        event['ref'] === 'standing:sup' &&
        event['bytes'] === Buffer.byteLength('posted by the tool'),
      'agent.posted from `the-loop post` run by the Bash tool',
      45_000,
      since,
    );
    expect(await claude.screen('sup')).not.toMatch(/Do you want to proceed\?/);
    await settled();
  });

  it('5: a session whose folder is untrusted is blocked, told once, and gets its boot prompt once the dialog is answered', async () => {
    const created = await claude.serve.cli([
      'standing',
      'create',
      'guard',
      '--cwd',
      claude.untrusted,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    await eventMatching(
      claude,
      (event) =>
        event.event === 'agent.state' &&
        event['ref'] === 'standing:guard' &&
        event['to'] === 'blocked',
      'standing:guard to be blocked',
    );
    await claude.waitForScreen('guard', /Is this a project you created or one you trust\?/);
    const said = await claude.serve.cli(['standing', 'say', 'guard', 'waiting behind the dialog']);
    expect(said.exitCode, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/^held: a dialog is open in the session/);
    // Longer than delivery.readyTimeoutMs (8 s): the boot prompt must not fail meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const meanwhile = await claude.events();
    expect(
      meanwhile.filter(
        (event) => event.event === 'agent.start_dialog' && event['ref'] === 'standing:guard',
      ),
    ).toHaveLength(1);
    expect(
      meanwhile.some(
        (event) => event.event === 'delivery.failed' && event['ref'] === 'standing:guard',
      ),
    ).toBe(false);
    expect(
      claude.fake.requests.some((r) =>
        userTexts(r).some((t) => t.includes('standing session `guard`')),
      ),
    ).toBe(false);
    // Someone attaches and trusts the folder.
    for (const key of startDialogFacts().trustKeys) await claude.keys('guard', key);
    await claude.requestWith('You are the standing session `guard`');
    expect(await finalOutcome(claude, deliveryIdOf(said))).toBe('delivery.delivered');
    await claude.requestWith('waiting behind the dialog');
    const boots = claude.fake.requests.filter(
      (r) =>
        r.kind === 'turn' &&
        userTexts(r).some((t) => t.includes('You are the standing session `guard`')),
    );
    // The boot prompt went in once (a later turn carries it again as history, not as its prompt).
    expect(
      boots.filter((r) =>
        lastPrompt(userTexts(r)).includes('You are the standing session `guard`'),
      ),
    ).toHaveLength(1);
  });
});
