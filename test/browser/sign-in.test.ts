import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailable, launchChromium } from './support/browser.js';
import { apiToken, startDashboardServe, type DashboardServe } from './support/dashboard-serve.js';

/** A raw request with the headers a browser would never let a page set (Host). */
function rawRequest(
  origin: string,
  options: { method?: string; path: string; headers?: Record<string, string> },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers ?? {},
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers }),
        );
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

describe.skipIf(browserUnavailable !== undefined)('dashboard sign-in and browser attacks', () => {
  let dashboard: DashboardServe;
  let browser: Browser;
  let attacker: Server;
  let attackerOrigin: string;

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([
      startDashboardServe({ sessions: ['alpha'] }),
      launchChromium(),
    ]);
    // Another origin on the same machine: same site as the dashboard (ports do not make a site),
    // so SameSite lets the cookie go along and only the Origin check stands in the way.
    attacker = createServer((incoming, response) => {
      const target = `${dashboard.origin}/api/v1/standing-sessions/alpha/stop`;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        incoming.url === '/form'
          ? `<form id="f" method="post" action="${target}"></form><script>document.getElementById('f').submit()</script>`
          : `<p>hi</p>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await browser?.close();
    await dashboard?.dispose();
    await new Promise((resolve) => attacker?.close(resolve));
  });

  async function signedInContext() {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await dashboard.signInUrl());
    await page.getByRole('table', { name: 'Sessions' }).waitFor();
    return { context, page };
  }

  it('trades the one-time URL for the cookie and leaves the code out of the address bar', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = await dashboard.signInUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?code=[A-Za-z0-9_-]{20,}$/);
    const login = page.waitForResponse((response) => response.url() === url);
    await page.goto(url);
    const setCookie = (await (await login).headerValue('set-cookie')) ?? '';
    expect(setCookie).toMatch(
      /^loop_session=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/,
    );
    expect(page.url()).toBe(`${dashboard.origin}/`);
    await expect(page.getByRole('table', { name: 'Sessions' }).waitFor()).resolves.toBeUndefined();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'loop_session', httpOnly: true, sameSite: 'Strict' });
    // The page's script cannot read an HttpOnly cookie.
    expect(await page.evaluate('document.cookie')).toBe('');
    const events = await dashboard.events();
    const signedIn = events.filter((event) => event['event'] === 'dashboard.signed_in');
    expect(signedIn.at(-1)).toEqual({
      ts: expect.any(String),
      seq: expect.any(Number),
      event: 'dashboard.signed_in',
      via: 'code',
    });
    expect(JSON.stringify(events)).not.toContain(new URL(url).searchParams.get('code'));
    await context.close();
  });

  it('shows /login with a message for a code used already', async () => {
    const url = await dashboard.signInUrl();
    const first = await browser.newContext();
    await (await first.newPage()).goto(url);
    await first.close();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /used already or has expired/,
    );
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it('takes the API token in the sign-in form, and refuses a wrong one', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${dashboard.origin}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('API token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not the API token/);
    expect(await context.cookies()).toEqual([]);
    await page.getByLabel('API token').fill(apiToken);
    await page.getByLabel('API token').press('Enter');
    await page.getByRole('table', { name: 'Sessions' }).waitFor();
    expect(page.url()).toBe(`${dashboard.origin}/`);
    const events = await dashboard.events();
    expect(events.filter((event) => event['event'] === 'dashboard.signed_in').at(-1)?.['via']).toBe(
      'token',
    );
    expect(JSON.stringify(events)).not.toContain(apiToken);
    await context.close();
  });

  it('sends pages to /login and refuses API calls without the cookie', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.request.get(`${dashboard.origin}/sessions/alpha`, {
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()['location']).toBe('/login');
    const api = await page.request.get(`${dashboard.origin}/api/v1/standing-sessions`);
    expect(api.status()).toBe(401);
    const ui = await page.request.get(`${dashboard.origin}/ui/overview`);
    expect(ui.status()).toBe(401);
    await context.close();
  });

  it('answers a script with the bearer token and refuses a wrong one', async () => {
    const context = await browser.newContext();
    const good = await context.request.post(
      `${dashboard.origin}/api/v1/standing-sessions/alpha/restart`,
      {
        headers: { authorization: `Bearer ${apiToken}` },
      },
    );
    expect(good.status()).toBe(200);
    const wrong = await context.request.get(`${dashboard.origin}/api/v1/standing-sessions`, {
      headers: { authorization: 'Bearer wrong-token' },
    });
    expect(wrong.status()).toBe(401);
    await context.close();
  });

  it('refuses a foreign Host (DNS rebinding), whatever it carries', async () => {
    const port = new URL(dashboard.origin).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, 'localhost']) {
      const answer = await rawRequest(dashboard.origin, {
        path: '/api/v1/standing-sessions',
        headers: { host, authorization: `Bearer ${apiToken}` },
      });
      expect(answer.status, host).toBe(421);
    }
    const ours = await rawRequest(dashboard.origin, {
      path: '/api/v1/health',
      headers: { host: `localhost:${port}`, authorization: `Bearer ${apiToken}` },
    });
    expect(ours.status).toBe(200);
  });

  it('refuses a cross-origin POST that carries a valid cookie (CSRF)', async () => {
    const { context, page } = await signedInContext();
    const attack = await context.newPage();
    const refused = attack.waitForResponse((response) =>
      response.url().endsWith('/api/v1/standing-sessions/alpha/stop'),
    );
    await attack.goto(`${attackerOrigin}/form`);
    const answer = await refused;
    expect(answer.status()).toBe(403);
    expect(
      answer.request().headers()['cookie'] ?? (await answer.request().allHeaders())['cookie'],
    ).toMatch(/loop_session=/);
    // A fetch from the other origin gets no CORS header to read anything with, either.
    await attack.goto(`${attackerOrigin}/`);
    const fetched = await attack.evaluate(async (target) => {
      try {
        await fetch(target, { method: 'POST', credentials: 'include' });
        return 'read';
      } catch {
        return 'blocked';
      }
    }, `${dashboard.origin}/api/v1/standing-sessions/alpha/stop`);
    expect(fetched).toBe('blocked');
    const session = await dashboard.serve.cli(['standing', 'get', 'alpha', '--json']);
    expect(JSON.parse(session.stdout)).toMatchObject({ status: 'running' });
    await page.close();
    await context.close();
  });

  it('sends the security headers and no CORS header, preflights included', async () => {
    const { context, page } = await signedInContext();
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/login'],
      ['GET', '/assets/dashboard.js'],
      ['GET', '/api/v1/standing-sessions'],
      ['OPTIONS', '/api/v1/standing-sessions/alpha/stop'],
    ] as const) {
      const answer = await context.request.fetch(`${dashboard.origin}${path}`, {
        method,
        headers: {
          origin: attackerOrigin,
          'access-control-request-method': 'POST',
        },
        maxRedirects: 0,
      });
      const headers = answer.headers();
      expect(headers['content-security-policy'], path).toMatch(
        /^default-src 'self'; frame-ancestors 'none'/,
      );
      expect(headers['content-security-policy']).not.toContain('*');
      expect(headers['referrer-policy']).toBe('same-origin');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(Object.keys(headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    // Nothing the page loaded came from another origin.
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name),
    );
    expect(loaded.filter((url) => !url.startsWith(dashboard.origin))).toEqual([]);
    await context.close();
  });
});

describe.skipIf(browserUnavailable !== undefined)('an expired sign-in code', () => {
  let dashboard: DashboardServe;
  let browser: Browser;

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([
      startDashboardServe({ env: { THE_LOOP_DASHBOARD_CODE_TTL_MS: '1' } }),
      launchChromium(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await dashboard?.dispose();
  });

  it('shows /login with a message and sets no cookie', async () => {
    const url = await dashboard.signInUrl();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(page.url()).not.toContain('code=');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/expired/);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
});
