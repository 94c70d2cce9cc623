import { compareVersions } from '../../src/harness/claude-versions.js';

/**
 * What each tested Claude Code version does where the-loop can see it and the fake agent models
 * it (test/real/FINDINGS.md (c), (h); docs/claude-code.md, the version table). One expectation,
 * checked twice: test/real/claude-facts.test.ts holds the real client to it, and
 * test/integration/fakes/fake-agent-versions.test.ts holds the fake agent acting as the same
 * version (`FAKE_AGENT_VERSION`) to it — so the fake and the real one agree, version by version.
 */
export interface ClaudeCodeBehaviour {
  /**
   * The hooks of a turn `a slow turn` with `queued one` and `queued two` typed while it runs, as
   * `hookSequence` writes them: 2.1.197 submits the queued prompts after the slow turn's Stop,
   * each with a prompt_id of its own; 2.1.332 submits them at once with the slow turn's prompt_id,
   * and the merged turn's Stop has a prompt_id no UserPromptSubmit had.
   */
  readonly queuedHooks: readonly string[];
  /** The hooks of a tool turn `read the notes` with `injected words` typed while the tool runs. */
  readonly injectedHooks: readonly string[];
  /** How the injected prompt reaches the model: a system message, or a user text block. */
  readonly injectedAs: 'system' | 'user';
  /** A queued prompt's line above the box. */
  readonly queuedLine: (prompt: string) => RegExp;
  /** What else shows with the queued prompts (2.1.332: how to send them now). */
  readonly queuedExtra: readonly RegExp[];
  /**
   * Whether `block` is what a collapsed paste reaches the model as — and, on 2.1.332, also
   * UserPromptSubmit's `prompt` (measured: the wrapper is in both; 2.1.197 sends the paste as is).
   */
  readonly pasteBlock: (paste: string, block: string) => boolean;
  /** Lines of the permission dialog that differ by version. */
  readonly permissionOptions: readonly RegExp[];
}

/** Both versions show this box while prompts wait. */
export const QUEUED_BOX = /^❯\u00a0Press up to edit queued messages$/m;

/** The start of the message that carries an injected prompt, on both versions. */
export const injectedStart = (prompt: string) =>
  `The user sent a new message while you were working:\n${prompt}\n`;

export function claudeCodeBehaviour(version: string): ClaudeCodeBehaviour {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (compareVersions(version, '2.1.332') >= 0) {
    return {
      queuedHooks: [
        'UserPromptSubmit "a slow turn" #1',
        'UserPromptSubmit "queued one" #1',
        'UserPromptSubmit "queued two" #1',
        'Stop #1',
        'Stop #2',
      ],
      injectedHooks: [
        'UserPromptSubmit "read the notes" #1',
        'UserPromptSubmit "injected words" #1',
        'PreToolUse #1',
        'PostToolUse #1',
        'Stop #1',
      ],
      injectedAs: 'user',
      queuedLine: (prompt) => new RegExp(`^❯ ${escaped(prompt)}$`, 'm'),
      queuedExtra: [/⎿ {2}Queued · ctrl\+x ctrl\+s to send now/],
      pasteBlock: (paste, block) => {
        const match =
          /^\n\n<pasted_content id="([^"]+)">\n([\s\S]*)\n<\/pasted_content id="([^"]+)">\n$/.exec(
            block,
          );
        return match !== null && match[1] === match[3] && match[2] === paste;
      },
      permissionOptions: [/^\s*3\. Yes, and switch to auto mode/m, /^\s*4\. No$/m],
    };
  }
  return {
    queuedHooks: [
      'UserPromptSubmit "a slow turn" #1',
      'Stop #1',
      'UserPromptSubmit "queued one" #2',
      'UserPromptSubmit "queued two" #3',
      'Stop #3',
    ],
    injectedHooks: [
      'UserPromptSubmit "read the notes" #1',
      'PreToolUse #1',
      'PostToolUse #1',
      'Stop #1',
    ],
    injectedAs: 'system',
    queuedLine: (prompt) => new RegExp(`^ {2}❯ ${escaped(prompt)}$`, 'm'),
    queuedExtra: [],
    pasteBlock: (paste, block) => block === paste,
    permissionOptions: [/^\s*3\. No$/m],
  };
}

/**
 * Hook calls as comparable lines: the event, the first line of a UserPromptSubmit's prompt (the
 * fake agent's scripting lines follow it), and `#n` for the
 * n-th distinct prompt_id among them (so ids compare without their values). SessionStart,
 * Notification and PermissionRequest are left out.
 */
export function hookSequence(
  calls: ReadonlyArray<{ readonly event: string; readonly input: Record<string, unknown> }>,
): string[] {
  const ids: unknown[] = [];
  const idOf = (id: unknown) => {
    if (typeof id !== 'string') return '#none';
    if (!ids.includes(id)) ids.push(id);
    return `#${ids.indexOf(id) + 1}`;
  };
  return calls
    .filter((call) =>
      ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'].includes(call.event),
    )
    .map((call) => {
      const first = String(call.input['prompt']).split('\n')[0];
      const prompt = call.event === 'UserPromptSubmit' ? ` ${JSON.stringify(first)}` : '';
      return `${call.event}${prompt} ${idOf(call.input['prompt_id'])}`;
    });
}
