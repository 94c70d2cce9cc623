import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { text, toolUse } from '../fakes/fake-anthropic/scripted-answer.js';
import { eventually } from '../helpers/eventually.js';
import type { RecordedRequest } from '../fakes/fake-anthropic/start-fake-anthropic.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { UNAPPROVED_API_KEY } from './scratch-home.js';
import { startClaudePane, type ClaudePane, type HookCall } from './start-claude-pane.js';
import { rawUserTexts, userTexts } from './start-real-claude.js';
import { dialogKeyPause, queueFacts, startDialogFacts } from './claude-dialog-keys.js';
import { claudeCodeVersion } from './claude-code-install.js';
import {
  claudeCodeBehaviour,
  hookSequence,
  injectedStart,
  QUEUED_BOX,
} from '../helpers/claude-code-behaviour.js';

const unavailable = realTierUnavailable();

/** A promise a test settles when it wants a slow scripted turn to go on. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const prompted = (prompt: string) => (call: HookCall) =>
  call.event === 'UserPromptSubmit' && call.input.prompt === prompt;

const systemTexts = (request: RecordedRequest) =>
  (
    (request.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)
      ?.messages ?? []
  )
    .filter((message) => message.role === 'system')
    .map((message) => String(message.content));

/**
 * What the real Claude Code does where the-loop depends on it (test/real/FINDINGS.md), pinned
 * against the client alone, without the-loop. When the pinned version changes, a fact that no
 * longer holds fails here, and the fake agent's twin of it must change with it: where the fake
 * models a fact per version, both are held to one expectation (test/helpers/claude-code-behaviour.ts;
 * the fake's side is test/integration/fakes/fake-agent-versions.test.ts).
 */
describe.skipIf(unavailable !== undefined)('facts about the real Claude Code', () => {
  let pane: ClaudePane;
  const dialogs = startDialogFacts();
  const queue = queueFacts();
  const behaviour = claudeCodeBehaviour(claudeCodeVersion());

  beforeAll(async () => {
    pane = await startClaudePane();
  });

  afterAll(async () => {
    await pane?.dispose();
  });

  // A failed fact is read from the screen and the hooks: show both.
  afterEach(async (context) => {
    const session = pane.sessions.at(-1);
    if (context.task.result?.state !== 'fail' || session === undefined) return;
    const calls = (await pane.hooks()).slice(-8).map((call) => JSON.stringify(call).slice(0, 300));
    process.stderr.write(
      `\n--- screen\n${await pane.screen(session)}\n--- last hooks\n${calls.join('\n')}\n`,
    );
  });

  describe('dialogs before SessionStart', () => {
    it('an untrusted folder: the trust dialog shows, a paste onto it is dropped, Enter trusts and only then SessionStart', async () => {
      const session = await pane.launch({ cwd: pane.untrusted });
      await pane.waitForScreen(session, /Is this a project you created or one you trust\?/);
      const screen = await pane.screen(session);
      for (const shown of dialogs.trustShown) expect(screen).toContain(shown);
      expect(screen).toContain('Enter to confirm · Esc to cancel');
      const startedHere = (call: HookCall) =>
        call.event === 'SessionStart' && call.input.cwd === pane.untrusted;
      expect((await pane.hooks()).some(startedHere)).toBe(false);
      await pane.paste(session, 'pasted onto the dialog');
      await dialogKeyPause();
      for (const key of dialogs.trustKeys) await pane.keys(session, key);
      await pane.waitForHook(startedHere, 'SessionStart after trusting');
      await pane.waitForScreen(session, /^❯\u00a0$/m);
      expect(await pane.screen(session)).not.toContain('pasted onto the dialog');
    });

    it('an unapproved API key: the key dialog shows with "No" preselected, before SessionStart; 1 approves', async () => {
      const before = (await pane.hooks()).length;
      const session = await pane.launch({ apiKey: UNAPPROVED_API_KEY });
      const screen = await pane.waitForScreen(
        session,
        /Detected a custom API key in your environment/,
      );
      expect(screen).toContain('Do you want to use this API key?');
      expect(screen).toContain(dialogs.apiKeyShown);
      expect((await pane.hooks()).slice(before).some((call) => call.event === 'SessionStart')).toBe(
        false,
      );
      await dialogKeyPause();
      for (const key of dialogs.apiKeyApprove) await pane.keys(session, key);
      await pane.waitForHook(
        (call) => call.event === 'SessionStart',
        'SessionStart after approving the key',
        {
          since: before,
        },
      );
      await pane.waitForScreen(session, /^❯\u00a0$/m);
    });
  });

  // Whether Claude Code drops that Enter depends on timing (FINDINGS.md (d)): it was dropped alone
  // and in one full .ci/run, and not in the next on the loaded 2-core machine. What the-loop relies
  // on holds either way and is what this pins: the Enter never turns into a newline or loses text —
  // the prompt is submitted whole, or the paste sits whole in the box until a second Enter.
  it("a fresh session's first Enter, sent with its first paste, submits it or leaves it whole in the box", async () => {
    const session = await pane.launch();
    await pane.waitForScreen(session, /^❯\u00a0$/m);
    const before = (await pane.hooks()).length;
    await pane.tmux.run(['load-buffer', '-b', 'first', '-'], 'the first message');
    // One tmux command: the paste and the Enter reach Claude Code in one write, as a delivery
    // with no settle would send them.
    await pane.tmux.run([
      'paste-buffer',
      '-p',
      '-d',
      '-b',
      'first',
      '-t',
      `=${session}:`,
      ';',
      'send-keys',
      '-t',
      `=${session}:`,
      'Enter',
    ]);
    // One of two things, whichever comes: the prompt submitted, or the paste left in the box.
    const submitted = () =>
      pane.hooks().then((calls) => calls.slice(before).some(prompted('the first message')));
    const outcome = await eventually(
      async () => {
        if (await submitted()) return 'submitted';
        const screen = await pane.screen(session);
        // Left whole, on one line, with nothing after it (an Enter read as a newline would add one).
        return /^❯\u00a0the first message\n─/m.test(screen) ? 'in the box' : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: 'the prompt submitted or left in the box' },
    );
    if (outcome === 'in the box') {
      // Nothing announces a dropped key: the hook would have come within a second or so.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (!(await submitted())) {
        expect(await pane.screen(session)).toMatch(/^❯\u00a0the first message\n─/m);
        await pane.keys(session, 'Enter');
      }
    }
    await pane.waitForHook(prompted('the first message'), 'the whole prompt, once', {
      since: before,
    });
    const calls = (await pane.hooks()).slice(before);
    expect(calls.filter((call) => call.event === 'UserPromptSubmit')).toHaveLength(1);
  });

  describe('one session', () => {
    let session: string;

    beforeAll(async () => {
      session = await pane.launch();
      await pane.waitForScreen(session, /^❯\u00a0$/m);
    });

    it('a tab in a paste reaches UserPromptSubmit and the model as four spaces', async () => {
      const before = (await pane.hooks()).length;
      await pane.submit(session, 'tab\there');
      await pane.waitForHook(prompted('tab    here'), 'UserPromptSubmit with four spaces');
      const request = await pane.fake.waitForRequest(
        (r) => r.kind === 'turn' && userTexts(r).includes('tab    here'),
        { what: 'the tab turn' },
      );
      expect(JSON.stringify(request.body)).not.toContain('tab\\there');
      await pane.waitForHook((call) => call.event === 'Stop', 'Stop', { since: before });
    });

    it('the permission dialog swallows a paste, and the Enter after it approves the tool', async () => {
      const marker = path.join(pane.work, 'made-by-the-test');
      pane.fake.script(
        toolUse('Bash', { command: `touch ${marker}`, description: 'Make a file' }),
        text('Made it.'),
      );
      const before = (await pane.hooks()).length;
      await pane.submit(session, 'make the file');
      const request = await pane.waitForHook(
        (call) => call.event === 'PermissionRequest',
        'PermissionRequest',
      );
      expect(request.input).toMatchObject({
        tool_name: 'Bash',
        tool_input: { command: `touch ${marker}` },
      });
      const dialog = await pane.waitForScreen(session, /Do you want to proceed\?/);
      expect(dialog).toContain('❯ 1. Yes');
      expect(dialog).toContain('Esc to cancel · Tab to amend');
      for (const option of behaviour.permissionOptions) expect(dialog).toMatch(option);
      await pane.paste(session, 'a message meant for the model');
      await dialogKeyPause();
      await pane.keys(session, 'Enter');
      await pane.waitForHook(
        (call) => call.event === 'PostToolUse' && call.input.tool_name === 'Bash',
        'PostToolUse: the tool ran',
      );
      expect(existsSync(marker)).toBe(true);
      await pane.waitForHook(
        (call) => call.event === 'Stop' && call.input.last_assistant_message === 'Made it.',
        'Stop',
      );
      const later = (await pane.hooks()).slice(before);
      expect(
        later.some((call) => JSON.stringify(call.input).includes('a message meant for the model')),
      ).toBe(false);
      expect(
        pane.fake.requests.some((r) =>
          JSON.stringify(r.body ?? null).includes('a message meant for the model'),
        ),
      ).toBe(false);
    });

    it('3 in the permission dialog says No at once: the turn ends with no Stop and no PostToolUse', async () => {
      const marker = path.join(pane.work, 'never-made');
      pane.fake.script(toolUse('Bash', { command: `touch ${marker}`, description: 'Make a file' }));
      await pane.submit(session, 'try to make a file');
      const asked = (call: HookCall) =>
        call.event === 'PermissionRequest' && JSON.stringify(call.input).includes(marker);
      await pane.waitForHook(asked, 'PermissionRequest');
      await pane.waitForScreen(session, /Do you want to proceed\?/);
      const since = (await pane.hooks()).findIndex(asked);
      // 2.1.332's third option is no longer "No" (it switched the session to auto mode): No is
      // Escape there (test/real/FINDINGS.md).
      await dialogKeyPause();
      await pane.keys(session, dialogs.permissionNo);
      await pane.waitForScreen(session, /⎿\s+Interrupted · What should Claude do instead\?/);
      await pane.waitForScreen(session, /^❯\u00a0$/m);
      await pane.submit(session, 'after the no');
      await pane.waitForHook(prompted('after the no'), 'the next prompt');
      // Its answer is unscripted; let the turn end so the next test's script is not taken by it.
      const calls = await pane.hooks();
      await pane.waitForHook((call) => call.event === 'Stop', 'the Stop after the no', {
        since: calls.findIndex(prompted('after the no')),
      });
      const between = calls.slice(since + 1, calls.findIndex(prompted('after the no')));
      expect(between.map((call) => call.event)).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    });

    it('prompts sent while a plain turn runs are queued, confirmed (2.1.197: after its Stop; 2.1.332: at once), and merged into one turn', async () => {
      const slow = gate();
      pane.fake.script(text('Slow answer.', { until: slow.promise }), text('Merged answer.'));
      const isStopOf = (answer: string) => (call: HookCall) =>
        call.event === 'Stop' && call.input.last_assistant_message === answer;
      await pane.submit(session, 'a slow turn');
      await pane.fake.waitForRequest(
        (r) => r.kind === 'turn' && userTexts(r).includes('a slow turn'),
      );
      await pane.submit(session, 'queued one');
      await pane.submit(session, 'queued two');
      const busy = await pane.waitForScreen(session, /❯ queued two\n/);
      expect(busy).toMatch(/^( {2})?❯ queued one$/m);
      expect(busy).toMatch(/^❯\u00a0Press up to edit queued messages$/m);
      expect(busy).toMatch(behaviour.queuedLine('queued one'));
      expect(busy).toMatch(QUEUED_BOX);
      // Drawn a moment after the queued line itself (a full run once looked too early).
      for (const extra of behaviour.queuedExtra) await pane.waitForScreen(session, extra);
      if (queue.submitWhenQueued) {
        // 2.1.332 (FINDINGS.md (h)): UserPromptSubmit as soon as each is queued, the turn still held.
        await pane.waitForHook(prompted('queued two'), 'UserPromptSubmit of the queued prompts');
        expect((await pane.hooks()).some(isStopOf('Slow answer.'))).toBe(false);
      } else expect((await pane.hooks()).some(prompted('queued one'))).toBe(false);
      slow.open();
      await pane.waitForHook(isStopOf('Merged answer.'), 'the Stop of the merged turn');
      const calls = await pane.hooks();
      const confirmed = [prompted('queued one'), prompted('queued two')];
      const order = (
        queue.submitWhenQueued
          ? [...confirmed, isStopOf('Slow answer.'), isStopOf('Merged answer.')]
          : [isStopOf('Slow answer.'), ...confirmed, isStopOf('Merged answer.')]
      ).map((matches) => calls.findIndex(matches));
      expect(order.every((index) => index >= 0)).toBe(true);
      expect([...order].sort((x, y) => x - y)).toEqual(order);
      // The same with the prompt_ids: 2.1.332's queued prompts carry the slow turn's, and the
      // merged turn's Stop one no UserPromptSubmit had (what the-loop's agent state relies on).
      expect(hookSequence(calls.slice(calls.findIndex(prompted('a slow turn'))))).toEqual(
        behaviour.queuedHooks,
      );
      const turns = pane.fake.requests.filter(
        (r) => r.kind === 'turn' && userTexts(r).some((t) => t.includes('queued one')),
      );
      expect(userTexts(turns[0]!).slice(-2)).toEqual(['queued one\n', 'queued two']);
    });

    // Every step waits for what Claude Code shows or sends, with generous deadlines (it once
    // timed out in a full .ci/run on the loaded 2-core machine with the 30 s defaults).
    it('a prompt sent while a tool call is under way is injected into the turn (2.1.197: with no UserPromptSubmit)', async () => {
      const notes = path.join(pane.work, 'notes.txt');
      await writeFile(notes, 'the notes\n');
      const held = gate();
      pane.fake.script(
        toolUse('Read', { file_path: notes }, { until: held.promise }),
        text('Read them.'),
      );
      await pane.submit(session, 'read the notes');
      await pane.fake.waitForRequest(
        (r) => r.kind === 'turn' && userTexts(r).includes('read the notes'),
      );
      await pane.submit(session, 'injected words');
      await pane.waitForScreen(session, /Press up to edit queued messages/);
      held.open();
      const stop = await pane.waitForHook(
        (call) => call.event === 'Stop' && call.input.last_assistant_message === 'Read them.',
        'the Stop of the tool turn',
        { timeoutMs: 90_000 },
      );
      // 2.1.197 injects it as a system message, 2.1.332 as a user text block (FINDINGS.md (h)).
      const blocks = queue.injectedAs === 'system' ? systemTexts : userTexts;
      const injected = pane.fake.requests.find((r) =>
        blocks(r).some((t) =>
          t.startsWith('The user sent a new message while you were working:\ninjected words\n'),
        ),
      );
      expect(injected).toBeDefined();
      const calls = await pane.hooks();
      const submitted = calls.findIndex(
        (call) =>
          JSON.stringify(call.input).includes('injected words') &&
          call.event === 'UserPromptSubmit',
      );
      // 2.1.332 confirms it as soon as it is queued, so before the turn's Stop.
      if (queue.submitWhenQueued) {
        expect(submitted).toBeGreaterThanOrEqual(0);
        expect(submitted).toBeLessThan(
          calls.findIndex(
            (call) => call.event === 'Stop' && call.input.last_assistant_message === 'Read them.',
          ),
        );
      } else expect(submitted).toBe(-1);
      // With the prompt_ids and the tool's hooks: on 2.1.332 the tool call after the injected
      // prompt's UserPromptSubmit is what tells it from a queued one.
      const stopAt = calls.findIndex(
        (call) => call.event === 'Stop' && call.input.last_assistant_message === 'Read them.',
      );
      expect(
        hookSequence(calls.slice(calls.findIndex(prompted('read the notes')), stopAt + 1)),
      ).toEqual(behaviour.injectedHooks);
      expect(
        pane.fake.requests.some((r) =>
          (behaviour.injectedAs === 'system' ? systemTexts : userTexts)(r).some((t) =>
            t.startsWith(injectedStart('injected words')),
          ),
        ),
      ).toBe(true);
      // The transcript is written behind the hooks: the attachment can land after the Stop.
      const injectedPrompts = async () =>
        (await readFile(String(stop.input.transcript_path), 'utf8'))
          .split('\n')
          .filter((line) => line !== '')
          .map(
            (line) =>
              JSON.parse(line) as {
                type?: string;
                attachment?: { type?: string; prompt?: string };
              },
          )
          .filter(
            (entry) => entry.type === 'attachment' && entry.attachment?.type === 'queued_command',
          )
          .map((entry) => entry.attachment?.prompt);
      const found = await eventually(
        async () => ((await injectedPrompts()).includes('injected words') ? true : undefined),
        {
          timeoutMs: 15_000,
          intervalMs: 100,
          what: 'the queued_command attachment in the transcript',
        },
      ).catch(async (error: unknown) => {
        process.stderr.write(
          `\n--- transcript\n${await readFile(String(stop.input.transcript_path), 'utf8')}\n`,
        );
        throw error;
      });
      expect(found).toBe(true);
    });

    it('a collapsed paste reaches the model as the version sends it (2.1.332: in <pasted_content id>)', async () => {
      const paste = 'first line\nsecond line\n\n  third, indented';
      pane.fake.script(text('Got the paste.'));
      const before = (await pane.hooks()).length;
      await pane.paste(session, paste);
      await pane.waitForScreen(session, /^❯\u00a0\[Pasted text #\d+ \+\d+ lines\]/m);
      await pane.keys(session, 'Enter');
      const submitted = await pane.waitForHook(
        (call) => call.event === 'UserPromptSubmit',
        'UserPromptSubmit of the paste',
        { since: before },
      );
      // 2.1.332 wraps it in UserPromptSubmit's prompt too (the delivery tag inside still counts).
      expect(behaviour.pasteBlock(paste, String(submitted.input.prompt))).toBe(true);
      const request = await pane.fake.waitForRequest(
        (r) => r.kind === 'turn' && userTexts(r).includes(paste),
        { what: 'the paste turn' },
      );
      expect(behaviour.pasteBlock(paste, rawUserTexts(request).at(-1) ?? '')).toBe(true);
      await pane.waitForHook(
        (call) => call.event === 'Stop' && call.input.last_assistant_message === 'Got the paste.',
        'the Stop of the paste turn',
      );
    });

    it('Escape before any output puts the prompt back in the box, with no Stop; the next paste joins it', async () => {
      const never = gate();
      pane.fake.script(text('never sent', { until: never.promise }));
      await pane.submit(session, 'interrupt me');
      await pane.waitForHook(prompted('interrupt me'), 'UserPromptSubmit');
      await pane.fake.waitForRequest(
        (r) => r.kind === 'turn' && userTexts(r).includes('interrupt me'),
      );
      await pane.keys(session, 'Escape');
      await pane.waitForScreen(session, /^❯\u00a0interrupt me\n─/m);
      await pane.paste(session, ' and more');
      await pane.waitForScreen(session, /^❯\u00a0interrupt me and more\n─/m);
      await pane.keys(session, 'Enter');
      await pane.waitForHook(prompted('interrupt me and more'), 'the joined prompt');
      const calls = await pane.hooks();
      const between = calls.slice(
        calls.findIndex(prompted('interrupt me')) + 1,
        calls.findIndex(prompted('interrupt me and more')),
      );
      expect(between.map((call) => call.event)).toEqual([]);
      await pane.waitForHook((call) => call.event === 'Stop', 'the joined turn to end', {
        since: calls.findIndex(prompted('interrupt me and more')),
      });
      never.open();
    });
  });
});
