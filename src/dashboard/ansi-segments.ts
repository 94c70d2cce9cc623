/**
 * A pane's text with colours (`capture-pane -e`) as plain data the page turns into spans with
 * `textContent` (docs/dashboard.md): nothing from the pane ever becomes markup. Only SGR
 * sequences (colours, bold, italic, underline, inverse) are read; every other escape is dropped.
 */

export interface Style {
  /** A 256-colour index (0–255) or `#rrggbb`. */
  readonly fg?: number | string;
  readonly bg?: number | string;
  readonly bold?: true;
  readonly dim?: true;
  readonly italic?: true;
  readonly underline?: true;
  readonly inverse?: true;
}

export interface Segment extends Style {
  readonly text: string;
}

type MutableStyle = { -readonly [K in keyof Style]?: Style[K] };

// CSI … final byte, OSC … BEL/ST, and any other two-byte escape.
// eslint-disable-next-line no-control-regex -- reading escape sequences is the point
const escapes = /\x1b(?:\[([0-9;:?]*)([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;

/** One segment list per line; consecutive characters of one style share a segment. */
export function ansiToLines(text: string): Segment[][] {
  const lines: Segment[][] = [];
  let style: MutableStyle = {};
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const segments: Segment[] = [];
    let at = 0;
    const push = (chunk: string): void => {
      // Other control characters (BEL, backspace…) would only garble the view.
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      const clean = chunk.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
      if (clean === '') return;
      const last = segments.at(-1);
      if (last !== undefined && sameStyle(last, style)) {
        segments[segments.length - 1] = { ...last, text: last.text + clean };
      } else segments.push({ ...style, text: clean });
    };
    for (const match of line.matchAll(escapes)) {
      push(line.slice(at, match.index));
      at = match.index + match[0].length;
      if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
    }
    push(line.slice(at));
    lines.push(segments);
  }
  return lines;
}

function applySgr(current: MutableStyle, params: string): MutableStyle {
  const codes = (params === '' ? '0' : params).split(/[;:]/).map((part) => Number(part) || 0);
  let style = { ...current };
  for (let index = 0; index < codes.length; index += 1) {
    const code = codes[index] ?? 0;
    if (code === 0) style = {};
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 7) style.inverse = true;
    else if (code === 22) {
      delete style.bold;
      delete style.dim;
    } else if (code === 23) delete style.italic;
    else if (code === 24) delete style.underline;
    else if (code === 27) delete style.inverse;
    else if (code >= 30 && code <= 37) style.fg = code - 30;
    else if (code >= 90 && code <= 97) style.fg = code - 90 + 8;
    else if (code === 39) delete style.fg;
    else if (code >= 40 && code <= 47) style.bg = code - 40;
    else if (code >= 100 && code <= 107) style.bg = code - 100 + 8;
    else if (code === 49) delete style.bg;
    else if (code === 38 || code === 48) {
      const key = code === 38 ? 'fg' : 'bg';
      const mode = codes[index + 1];
      if (mode === 5) {
        style[key] = clampByte(codes[index + 2]);
        index += 2;
      } else if (mode === 2) {
        const rgb = [codes[index + 2], codes[index + 3], codes[index + 4]].map(clampByte);
        style[key] = `#${rgb.map((part) => part.toString(16).padStart(2, '0')).join('')}`;
        index += 4;
      }
    }
  }
  return style;
}

function clampByte(value: number | undefined): number {
  return Math.max(0, Math.min(255, Math.trunc(value ?? 0)));
}

function sameStyle(a: Style, b: Style): boolean {
  return (
    a.fg === b.fg &&
    a.bg === b.bg &&
    a.bold === b.bold &&
    a.dim === b.dim &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.inverse === b.inverse
  );
}
