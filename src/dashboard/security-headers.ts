/**
 * Sent on every dashboard answer, pages, assets and API alike (docs/design.md §19): only this
 * origin's scripts, styles, images and connections; never framed; the Referer only to this
 * origin (`no-referrer` would make Chromium send `Origin: null` on same-origin forms). No CORS
 * header is ever sent.
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The cookie that says a browser signed in; the server forgets it after 12 hours too. */
export const sessionCookieName = 'loop_session';

export function sessionCookie(value: string): string {
  return `${sessionCookieName}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`;
}

/** The `loop_session` value of a Cookie header, if it has one. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === sessionCookieName) return rest.join('=');
  }
  return undefined;
}
