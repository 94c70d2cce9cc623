/**
 * The characters of `text` a terminal would act on rather than show: C0 controls except the
 * newline, DEL, C1 controls and the bidi overrides. Messages built from a config file must have
 * none, whatever the file held.
 */
export function controlCharacters(text: string): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return (
      (code < 0x20 && char !== '\n') ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    );
  });
}
