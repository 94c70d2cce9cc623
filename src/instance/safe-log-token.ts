const maxLength = 60;

/**
 * Makes a piece of outside text fit for a log line: printable ASCII only, at most 60 characters.
 * Control characters, escape sequences and look-alike Unicode are dropped rather than escaped, so
 * nothing a commenter typed can forge or garble a line a person later reads.
 */
export function safeLogToken(text: string): string {
  let kept = '';
  for (const char of text) {
    if (kept.length === maxLength) break;
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0x20 && code <= 0x7e) kept += char;
  }
  return kept;
}
