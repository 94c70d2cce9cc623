// @ts-check

/**
 * The Claude Code version the fake agent acts as (`FAKE_AGENT_VERSION`), and what differs between
 * the tested versions where the-loop can see it (test/real/FINDINGS.md (c), (h)). Unset, the fake
 * keeps its older, simpler model: every prompt is a turn of its own, one after the other, nothing
 * listed above the box, no `prompt_id`. Set to a version, it acts as that version does — and
 * test/integration/fakes/fake-agent-versions.test.ts holds it to the same expectations
 * (test/helpers/claude-code-behaviour.ts) that test/real/claude-facts.test.ts holds the real one to.
 *
 * @typedef {{
 *   version: string,
 *   submitWhenQueued: boolean,
 *   queuedLines: (prompts: readonly string[]) => string[],
 *   wrapPaste: (text: string, id: string) => string,
 *   submitsWrapped: boolean,
 *   injected: (prompt: string) => { role: 'system' | 'user', text: string },
 *   permissionOptions: (command: string) => string[],
 *   permissionKeys: { yes: readonly string[], auto: readonly string[], no: readonly string[] },
 * }} VersionBehaviour
 */

/** Compares two `x.y.z` versions. @param {string} a @param {string} b */
function compare(a, b) {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const diff = (left[index] ?? 0) - (right[index] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

const firstLine = (/** @type {string} */ text) => text.split('\n')[0] ?? '';

/**
 * @param {string | undefined} version
 * @returns {VersionBehaviour | undefined} undefined when no version is set (the older model)
 */
export function versionBehaviour(version) {
  if (version === undefined || version === '') return undefined;
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  if (compare(version, '2.1.332') >= 0) {
    return {
      version,
      // The prompt's UserPromptSubmit fires as it is queued, with the running turn's prompt_id.
      submitWhenQueued: true,
      // At column 0, the last one followed by how to send them now.
      queuedLines: (prompts) =>
        prompts.length === 0
          ? []
          : [...prompts.map((p) => `❯ ${firstLine(p)}`), '  ⎿  Queued · ctrl+x ctrl+s to send now'],
      wrapPaste: (text, id) =>
        `\n\n<pasted_content id="${id}">\n${text}\n</pasted_content id="${id}">\n`,
      // UserPromptSubmit's prompt has the wrapper too.
      submitsWrapped: true,
      injected: (prompt) => ({
        role: 'user',
        text:
          `The user sent a new message while you were working:\n${prompt}\n\n` +
          'This is how Claude Code surfaces messages the user sends while you work.',
      }),
      permissionOptions: (command) => [
        ' ❯ 1. Yes',
        `   2. Yes, and always allow access to ${command.split(' ')[0] ?? command} from this project`,
        '   3. Yes, and switch to auto mode',
        '   4. No',
        '',
        ' auto mode handles these prompts for you',
        ' Esc to cancel · Tab to amend',
      ],
      permissionKeys: { yes: ['1', '\r', '\n'], auto: ['3'], no: ['4', '\x1b'] },
    };
  }
  return {
    version,
    // UserPromptSubmit only when the running turn has ended, one per queued prompt.
    submitWhenQueued: false,
    queuedLines: (prompts) => prompts.map((p) => `  ❯ ${firstLine(p)}`),
    wrapPaste: (text) => text,
    submitsWrapped: false,
    injected: (prompt) => ({
      role: 'system',
      text:
        `The user sent a new message while you were working:\n${prompt}\n\n` +
        "IMPORTANT: After completing your current task, you MUST address the user's message above. Do not ignore it.",
    }),
    permissionOptions: () => [
      ' ❯ 1. Yes',
      '   2. Yes, and don’t ask again',
      '   3. No',
      '',
      ' Esc to cancel · Tab to amend · ctrl+e to explain',
    ],
    permissionKeys: { yes: ['1', '\r', '\n'], auto: [], no: ['3', '\x1b'] },
  };
}
