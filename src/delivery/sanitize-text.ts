/**
 * Removes everything a terminal could read as a control sequence: ESC and every other C0 control
 * except newline and tab, DEL, and the C1 range (some terminals read U+009B as CSI). An embedded
 * `ESC[201~` would otherwise end a bracketed paste early and turn the rest into keystrokes.
 * Carriage returns go too, so CRLF text arrives as plain lines.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitizeText(text: string): string {
  return text.replace(unsafe, '');
}
