// @ts-check

/** Claude Code 2.1's trust dialog, as far as the-loop reads it (test/real/FINDINGS.md (a)). */
const TRUST_DIALOG = [
  '────────────────────────────────────────────────────────────────',
  ' Accessing workspace:',
  '',
  ' Quick safety check: Is this a project you created or one you trust?',
  '',
  ' ❯ 1. Yes, I trust this folder',
  '   2. No, exit',
  '',
  ' Enter to confirm · Esc to cancel',
];

/**
 * Its permission dialog for a Bash command; the input box is gone while it shows. The options are
 * the version's (fake-agent-version.mjs), 2.1.197's when no version is set.
 *
 * @param {string} command
 * @param {import('./fake-agent-version.mjs').VersionBehaviour | undefined} behaviour
 */
const permissionDialog = (command, behaviour) => [
  '────────────────────────────────────────────────────────────────',
  ' Bash command',
  '',
  `   ${command}`,
  '',
  ' Do you want to proceed?',
  ...(behaviour?.permissionOptions(command) ?? [
    ' ❯ 1. Yes',
    '   2. Yes, and don’t ask again',
    '   3. No',
    '',
    ' Esc to cancel · Tab to amend · ctrl+e to explain',
  ]),
];

/**
 * @typedef {{ write: (text: string) => void, record: (event: string, fields?: Record<string, unknown>) => void }} DialogIo
 * @typedef {{ answered: Promise<boolean>, feed: (chunk: string) => void }} Dialog
 */

/**
 * A dialog as Claude Code shows one: it takes every key, a bracketed paste is dropped whole, `1`
 * or Enter picks "Yes", `2` (trust) / `3` (permission) or Escape picks "No". Resolves true for Yes.
 * Input goes to `feed` while it shows; the screen is redrawn once it is answered. `keys` replaces
 * the permission dialog's keys for a version (2.1.332: `3` is "Yes, and switch to auto mode",
 * recorded as `auto`, and `4` is No).
 *
 * @param {'trust' | 'permission'} kind
 * @param {string[]} lines
 * @param {DialogIo} io
 * @param {import('./fake-agent-version.mjs').VersionBehaviour['permissionKeys']} [keys]
 * @returns {Dialog}
 */
function openDialog(kind, lines, io, keys) {
  /** @type {(yes: boolean) => void} */
  let settle = () => undefined;
  const answered = new Promise((resolve) => (settle = resolve));
  // The box line goes: the dialog replaces it at the bottom of the screen.
  io.write(`\r\x1b[2K${lines.join('\r\n')}\r\n`);
  io.record(`${kind}_dialog`);
  const no = kind === 'trust' ? '2' : '3';
  let done = false;
  return {
    answered: /** @type {Promise<boolean>} */ (answered),
    feed(chunk) {
      if (done) return;
      const key = chunk.startsWith('\x1b[200~') ? '' : chunk;
      const auto = keys?.auto.includes(key) ?? false;
      const yes =
        auto || (keys ? keys.yes.includes(key) : key === '1' || key === '\r' || key === '\n');
      const refused = keys ? keys.no.includes(key) : key === no || key === '\x1b';
      io.record(`${kind}_dialog_key`, {
        bytes: chunk.length,
        yes,
        refused,
        ...(auto ? { auto } : {}),
      });
      if (!yes && !refused) return;
      done = true;
      io.write('\x1b[2J\x1b[H');
      settle(yes);
    },
  };
}

/** The trust dialog before SessionStart. @param {DialogIo} io */
export const openTrustDialog = (io) => openDialog('trust', TRUST_DIALOG, io);

/**
 * The permission dialog of a tool call, as `behaviour`'s version shows it.
 *
 * @param {string} command
 * @param {DialogIo} io
 * @param {import('./fake-agent-version.mjs').VersionBehaviour} [behaviour]
 */
export const openPermissionDialog = (command, io, behaviour) =>
  openDialog('permission', permissionDialog(command, behaviour), io, behaviour?.permissionKeys);

/**
 * A dialog the-loop does not know: Claude Code 2.1.332's "Adding a new directory" question (the
 * one `--add-dir` raised), with "No, exit" preselected so that Enter exits, as it does there.
 * Down then Enter picks "Yes, add it"; Enter alone or Escape exits. Every key is recorded
 * (`unknown_dialog_key`), so a test sees whether anything was pressed into it.
 *
 * @param {DialogIo} io
 * @returns {Dialog}
 */
export function openUnknownDialog(io) {
  /** @type {(yes: boolean) => void} */
  let settle = () => undefined;
  const answered = new Promise((resolve) => (settle = resolve));
  const draw = (/** @type {boolean} */ yes) =>
    io.write(
      `\x1b[2J\x1b[H${[
        '────────────────────────────────────────────────────────────────',
        ' Adding a new directory:',
        '',
        ' /srv/the-loop/files/loop-standing-x',
        '',
        " This session hasn't worked here before. Is this a directory you created or one you trust?",
        '',
        ` ${yes ? ' ' : '❯'} No, exit`,
        ` ${yes ? '❯' : ' '} Yes, add it`,
        '',
        ' Enter to confirm · Esc to cancel',
      ].join('\r\n')}\r\n`,
    );
  draw(false);
  io.record('unknown_dialog');
  let onYes = false;
  let done = false;
  return {
    answered: /** @type {Promise<boolean>} */ (answered),
    feed(chunk) {
      if (done) return;
      io.record('unknown_dialog_key', { bytes: chunk.length });
      if (chunk === '\x1b[B' || chunk === '\x1b[A') {
        onYes = chunk === '\x1b[B';
        draw(onYes);
        return;
      }
      const enter = chunk === '\r' || chunk === '\n';
      if (!enter && chunk !== '\x1b') return;
      done = true;
      io.write('\x1b[2J\x1b[H');
      settle(enter && onYes);
    },
  };
}
