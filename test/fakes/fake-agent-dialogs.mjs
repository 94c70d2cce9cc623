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
].join('\r\n');

/**
 * The dialog Claude Code shows before SessionStart in a folder it does not trust: it takes every
 * key (a paste is dropped), `1` or Enter trusts the folder, `2` or Escape exits. Resolves true when
 * trusted. Input goes to `feed` while the dialog shows.
 *
 * @param {{ write: (text: string) => void, record: (event: string, fields?: Record<string, unknown>) => void }} io
 * @returns {{ answered: Promise<boolean>, feed: (chunk: string) => void }}
 */
export function openTrustDialog(io) {
  /** @type {(trusted: boolean) => void} */
  let settle = () => undefined;
  const answered = new Promise((resolve) => (settle = resolve));
  io.write(`${TRUST_DIALOG}\r\n`);
  io.record('trust_dialog');
  let done = false;
  return {
    answered: /** @type {Promise<boolean>} */ (answered),
    feed(chunk) {
      if (done) return;
      // A bracketed paste is dropped whole, as in Claude Code; only a bare key answers.
      const key = chunk.startsWith('\x1b[200~') ? '' : chunk;
      const trusted = key === '1' || key === '\r' || key === '\n';
      const refused = key === '2' || key === '\x1b';
      io.record('trust_dialog_key', { bytes: chunk.length, trusted, refused });
      if (!trusted && !refused) return;
      done = true;
      // Claude Code redraws the whole screen once the dialog is answered.
      io.write('\x1b[2J\x1b[H');
      settle(trusted);
    },
  };
}
