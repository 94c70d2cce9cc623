/**
 * The whole character before `index`, or "" at the start. A letter outside the BMP is two UTF-16
 * units, and a check on the low half alone would miss that it is a letter.
 */
export function codePointBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(pair ? index - 2 : index - 1, index);
}
