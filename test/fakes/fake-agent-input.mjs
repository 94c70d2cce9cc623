// @ts-check

/**
 * @typedef {import('./fake-agent-input.mjs').InputEffect} InputEffect
 * @typedef {import('./fake-agent-input.mjs').InputReader} InputReader
 */

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/**
 * The prompt line of a raw-mode TUI as a state machine over the input stream. Inside a bracketed
 * paste every character is text (newlines included); outside it Enter submits, so a pasted message
 * is submitted only by the separate Enter the delivery core sends.
 *
 * `pasteSettleMs` copies Claude Code's paste handler: a paste is committed only after that much
 * quiet time, and an Enter read before then joins the paste as a newline instead of submitting.
 *
 * @param {{ pasteSettleMs?: number, now?: () => number }} [options]
 * @returns {InputReader}
 */
export function createInputReader(options = {}) {
  const pasteSettleMs = options.pasteSettleMs ?? 0;
  const now = options.now ?? Date.now;
  let pending = '';
  let pasteEndedAt = Number.NEGATIVE_INFINITY;
  let inPaste = false;
  let pasteLength = 0;
  let pasteNewlines = 0;
  /** @type {string} */
  let pasteText = '';
  /** tmux turns each LF of a paste into CR, so a CR is a newline and a CR LF pair is one. */
  let afterCr = false;
  let line = '';
  let lastWasCtrlC = false;

  /** @param {string} text */
  function addPasted(text) {
    let chunk = afterCr && text.startsWith('\n') ? text.slice(1) : text;
    if (chunk.length === 0) return;
    afterCr = chunk.endsWith('\r');
    chunk = chunk.replace(/\r\n?/g, '\n');
    pasteLength += chunk.length;
    pasteNewlines += (chunk.match(/\n/g) ?? []).length;
    pasteText += chunk;
    line += chunk;
  }

  /**
   * @param {string} text
   * @param {InputEffect[]} effects
   */
  function decode(text, effects) {
    let i = 0;
    while (i < text.length) {
      if (inPaste) {
        const end = text.indexOf(PASTE_END, i);
        if (end === -1) {
          const lastEsc = text.lastIndexOf(ESC);
          const keep =
            lastEsc >= i && PASTE_END.startsWith(text.slice(lastEsc)) ? text.length - lastEsc : 0;
          addPasted(text.slice(i, text.length - keep));
          pending = text.slice(text.length - keep);
          return;
        }
        addPasted(text.slice(i, end));
        inPaste = false;
        pasteEndedAt = now();
        effects.push({
          type: 'pasted',
          length: pasteLength,
          newlines: pasteNewlines,
          text: pasteText,
        });
        i = end + PASTE_END.length;
        continue;
      }
      const char = text[i] ?? '';
      if (char === ESC) {
        const length = escapeLength(text, i);
        if (length === 0) {
          pending = text.slice(i);
          return;
        }
        const sequence = text.slice(i, i + length);
        if (sequence === PASTE_START) {
          inPaste = true;
          pasteLength = 0;
          pasteNewlines = 0;
          pasteText = '';
          afterCr = false;
        } else if (sequence === ESC) {
          key(effects, { type: 'escape' });
        }
        i += length;
        continue;
      }
      let end = i;
      while (end < text.length && isPrintable(text.charCodeAt(end))) end += 1;
      if (end > i) {
        const printable = text.slice(i, end);
        line += printable;
        key(effects, { type: 'typed', text: printable });
        i = end;
        continue;
      }
      control(char, effects);
      i += 1;
    }
  }

  /**
   * @param {string} char
   * @param {InputEffect[]} effects
   */
  function control(char, effects) {
    if (char === '\r' && now() - pasteEndedAt < pasteSettleMs) {
      // As Claude Code 2.1 does with an Enter that comes too soon: it is lost, the text stays.
      key(effects, { type: 'absorbed-enter' });
    } else if (char === '\r') {
      if (line.length > 0) key(effects, { type: 'submit', text: line });
      line = '';
    } else if (char === '\x7f' || char === '\b') {
      if (line.length === 0) return;
      line = Array.from(line).slice(0, -1).join('');
      key(effects, { type: 'erase' });
    } else if (char === '\x03') {
      const repeated = lastWasCtrlC;
      line = '';
      effects.push({ type: 'ctrl-c', repeated });
      lastWasCtrlC = true;
    } else if (char === '\n' || char === '\t') {
      line += char;
      key(effects, { type: 'typed', text: char });
    }
  }

  /**
   * @param {InputEffect[]} effects
   * @param {InputEffect} effect
   */
  function key(effects, effect) {
    lastWasCtrlC = false;
    effects.push(effect);
  }

  return {
    /** What the input line holds (Claude Code's input box). */
    current() {
      return line;
    },
    /** Replaces the input line: Claude Code puts an interrupted prompt back, Escape twice empties. */
    setLine(/** @type {string} */ text) {
      line = text;
    },
    feed(text) {
      /** @type {InputEffect[]} */
      const effects = [];
      const input = pending + text;
      pending = '';
      decode(input, effects);
      return effects;
    },
    hasPending() {
      return !inPaste && pending.length > 0;
    },
    flush() {
      /** @type {InputEffect[]} */
      const effects = [];
      if (inPaste || pending.length === 0) return effects;
      const rest = pending.slice(1);
      pending = '';
      key(effects, { type: 'escape' });
      decode(rest, effects);
      return effects;
    },
  };
}

/**
 * Length of the escape sequence at `start`: 1 for a lone ESC (followed by something that does not
 * continue it), the whole CSI or SS3 sequence otherwise, 0 when the text ends before it does.
 *
 * @param {string} text
 * @param {number} start
 * @returns {number}
 */
function escapeLength(text, start) {
  const next = text[start + 1];
  if (next === undefined) return 0;
  if (next === 'O') return start + 2 < text.length ? 3 : 0;
  if (next !== '[') return 1;
  let end = start + 2;
  while (end < text.length && /[\x20-\x3f]/.test(text[end] ?? '')) end += 1;
  if (end >= text.length) return 0;
  return /[\x40-\x7e]/.test(text[end] ?? '') ? end + 1 - start : 1;
}

/** @param {number} code */
function isPrintable(code) {
  return code >= 0x20 && code !== 0x7f;
}
