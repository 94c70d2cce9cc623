import { h } from './dom.js';

/** One run of text in one style, as serve sends it (src/dashboard/ansi-segments.ts). */
export interface Segment {
  readonly text: string;
  readonly fg?: number | string;
  readonly bg?: number | string;
  readonly bold?: true;
  readonly dim?: true;
  readonly italic?: true;
  readonly underline?: true;
  readonly inverse?: true;
}

const xterm = [0, 95, 135, 175, 215, 255];

/** A 256-colour index as CSS; the 16 basic ones are classes of the stylesheet. */
function colour(value: number | string): string {
  if (typeof value === 'string') return /^#[0-9a-f]{6}$/.test(value) ? value : '';
  if (value >= 232) {
    const grey = 8 + (value - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const cube = value - 16;
  const part = (index: number) => xterm[index] ?? 0;
  return `rgb(${part(Math.floor(cube / 36))}, ${part(Math.floor(cube / 6) % 6)}, ${part(cube % 6)})`;
}

/**
 * Fills the Terminal view with the pane's lines: each segment a span whose text is a text node
 * (nothing from the pane is parsed as markup), its colours classes or CSSOM properties (the
 * Content-Security-Policy forbids inline style attributes, not the CSSOM).
 */
export function renderTerminal(view: HTMLElement, lines: readonly (readonly Segment[])[]): void {
  const fragment = document.createDocumentFragment();
  lines.forEach((segments, index) => {
    if (index > 0) fragment.append('\n');
    for (const segment of segments) {
      const plain = Object.keys(segment).length === 1;
      if (plain) {
        fragment.append(segment.text);
        continue;
      }
      const span = h('span', {}, segment.text);
      const [fg, bg] = segment.inverse
        ? [segment.bg ?? 0, segment.fg ?? 7]
        : [segment.fg, segment.bg];
      paint(span, 'fg', fg);
      paint(span, 'bg', bg);
      if (segment.bold) span.classList.add('b');
      if (segment.dim) span.classList.add('d');
      if (segment.italic) span.classList.add('i');
      if (segment.underline) span.classList.add('u');
      fragment.append(span);
    }
  });
  view.replaceChildren(fragment);
}

function paint(span: HTMLElement, which: 'fg' | 'bg', value: number | string | undefined): void {
  if (value === undefined) return;
  if (typeof value === 'number' && value < 16) {
    span.classList.add(`${which}-${value}`);
    return;
  }
  const css = colour(value);
  if (which === 'fg') span.style.color = css;
  else span.style.backgroundColor = css;
}
