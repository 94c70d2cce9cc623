/**
 * Renders a value from a config file for a message: short, on one line, with control, bidi and
 * other invisible characters escaped so a hostile file cannot rewrite the terminal it is shown on.
 */
export function quote(value: unknown, maxLength = 60): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  const short = text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
  return escapeInvisible(short);
}

// C0/C1 controls, DEL, zero-width and bidi controls, line/paragraph separators and the BOM.
// eslint-disable-next-line no-control-regex -- matching control characters is the point here.
const invisible = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Escapes only what cannot be shown safely; ordinary non-ASCII text (é, 漢) stays readable. */
export function escapeInvisible(text: string): string {
  return text.replace(
    invisible,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
