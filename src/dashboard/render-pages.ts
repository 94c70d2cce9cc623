/**
 * The dashboard's HTML (docs/design.md §19): one shell for every signed-in page (the script
 * builds the rest from the URL) and the sign-in page. No inline script or style: the
 * Content-Security-Policy allows only files from this origin.
 */

export function renderAppPage(title: string): string {
  return page(
    title,
    [
      '<header id="top"><p class="brand"><a href="/">the-loop</a></p>',
      '<p id="instance" aria-live="polite">loading…</p>',
      '<ul id="surfaces" aria-label="Surfaces"></ul></header>',
      '<main id="main"><p>loading…</p></main>',
      '<script type="module" src="/assets/dashboard.js"></script>',
    ].join('\n'),
  );
}

export function renderLoginPage(message: string | undefined): string {
  const alert =
    message === undefined ? '' : `<p role="alert" class="refusal">${escapeHtml(message)}</p>\n`;
  return page(
    'Sign in',
    [
      '<main id="main" class="login">',
      '<h1>Sign in to the-loop</h1>',
      alert +
        '<p>Run <code>the-loop dashboard</code> and open the URL it prints, or sign in with the API token (<code>THE_LOOP_API_TOKEN</code>).</p>',
      '<form method="post" action="/login">',
      '<label for="token">API token</label>',
      '<input id="token" name="token" type="password" autocomplete="current-password" required>',
      '<button type="submit">Sign in</button>',
      '</form>',
      '</main>',
    ].join('\n'),
  );
}

function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · the-loop</title>`,
    '<link rel="stylesheet" href="/assets/dashboard.css">',
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );
}
