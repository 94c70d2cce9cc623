/** The longest file name the-loop writes; most filesystems allow 255 bytes. */
export const maxStoredNameBytes = 200;

/**
 * A name Slack gave a file, made safe to be one path segment: no slashes or backslashes (so
 * `../../x` stays in its folder), no control characters, no leading dot (no `..`, no hidden file).
 */
export function sanitizeFileName(name: string): string {
  const safe = name
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '')
    .replace(/[/\\]/g, '_')
    .replace(/^\.+/, '_')
    .trim();
  return safe === '' ? 'file' : safe;
}

/**
 * Where each file of one message is stored: `<message ts>-<sanitised name>`, cut to 200 bytes on
 * a character boundary (keeping a short extension), and made unique within the message.
 */
export function storedFileNames(messageTs: string, names: readonly string[]): string[] {
  const ts = messageTs.replace(/[^0-9.]/g, '').replace(/^\.+/, '') || '0';
  const used = new Set<string>();
  return names.map((name, index) => {
    const safe = sanitizeFileName(name);
    let stored = fitName(`${ts}-`, safe);
    if (used.has(stored)) stored = fitName(`${ts}-${index + 1}-`, safe);
    used.add(stored);
    return stored;
  });
}

function fitName(prefix: string, name: string): string {
  const bytes = (text: string) => Buffer.byteLength(text);
  if (bytes(prefix) + bytes(name) <= maxStoredNameBytes) return prefix + name;
  const extension = /\.[^.\s]{1,16}$/.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - extension.length);
  let budget = maxStoredNameBytes - bytes(prefix) - bytes(extension);
  let cut = '';
  for (const char of stem) {
    budget -= bytes(char);
    if (budget < 0) break;
    cut += char;
  }
  return prefix + cut + extension;
}

/** The name as a person sees it in the delivered line: one line, at most 200 characters. */
export function displayFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters would break the line
  const flat = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  const points = [...flat];
  return points.length > 200 ? `${points.slice(0, 199).join('')}…` : flat || 'file';
}
