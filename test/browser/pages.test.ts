import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { browserUnavailable, launchChromium } from './support/browser.js';
import { startDashboardServe, type DashboardServe } from './support/dashboard-serve.js';

const docs = path.resolve('docs');

/** The controls on the page that have no accessible name (should be none). */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const unnamed = [];
    for (const element of document.querySelectorAll('button, input, textarea, select, a, summary')) {
      const labelled = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') ||
        (element.labels && element.labels.length > 0) || element.textContent.trim();
      if (!labelled) unnamed.push(element.outerHTML.slice(0, 80));
    }
    return unnamed;
  })()`);
}

describe.skipIf(browserUnavailable !== undefined)('the dashboard pages', () => {
  let dashboard: DashboardServe;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([
      startDashboardServe({ sessions: ['alpha'] }),
      launchChromium(),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.goto(await dashboard.signInUrl());
    await waitForTurns(dashboard.serve, 'standing:alpha', 1);
  });

  afterAll(async () => {
    await browser?.close();
    await dashboard?.dispose();
  });

  const row = (name: string) =>
    page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('row')
      .filter({
        has: page.getByRole('link', { name, exact: true }),
      });

  it('lists every session with its kind, state, harness and folder, and the header', async () => {
    await page.goto(`${dashboard.origin}/`);
    await expect(row('alpha').getByRole('cell').allTextContents()).resolves.toEqual([
      'alpha',
      'declared',
      'running',
      'idle',
      'fake',
      path.join(dashboard.serve.dir, 'work'),
      '—',
      'StopRestart',
    ]);
    // A declared session has no Delete.
    await expect(row('alpha').getByRole('button', { name: 'Delete alpha' }).count()).resolves.toBe(
      0,
    );
    await expect(page.locator('#instance').textContent()).resolves.toBe(
      'Instance (unnamed) · scope open',
    );
    await expect(page.getByRole('list', { name: 'Surfaces' }).textContent()).resolves.toBe(
      'Slack: offGitHub: offfleet: off',
    );
    expect(await unnamedControls(page)).toEqual([]);
  });

  it('creates a session from the form, and shows a refusal next to it', async () => {
    const form = page.getByRole('form', { name: 'Create a session' });
    await form.getByLabel('Name').fill('beta');
    await form.getByLabel('Harness').selectOption('fake');
    await form.getByLabel('Prompt').fill('say hello');
    await page.getByText('More options').click();
    await form.getByLabel('Description').fill('made in the browser');
    await form.getByRole('button', { name: 'Create' }).click();
    await row('beta').waitFor();
    await expect(row('beta').getByRole('cell').nth(1).textContent()).resolves.toBe('created');

    await form.getByLabel('Name').fill('beta');
    await form.getByRole('button', { name: 'Create' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/beta/);

    await form.getByLabel('Name').fill('gamma');
    await form.getByLabel('Working folder').fill('..');
    await form.getByRole('button', { name: 'Create' }).click();
    await eventually(
      async () => /outside standing\.allowedRoots/.test((await alert.textContent()) ?? ''),
      {
        what: 'the cwd refusal',
      },
    );
  });

  it('stops, starts, restarts and deletes (after confirming) a created session', async () => {
    await waitForTurns(dashboard.serve, 'standing:beta', 1);
    const status = () => row('beta').getByRole('cell').nth(2).textContent();
    await page.getByRole('button', { name: 'Stop beta' }).click();
    await eventually(async () => (await status()) === 'stopped', { what: 'beta stopped' });
    await page.getByRole('button', { name: 'Start beta' }).click();
    await eventually(async () => (await status()) === 'running', { what: 'beta running' });
    await page.getByRole('button', { name: 'Restart beta' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toBeDefined();
    await eventually(
      async () => (await page.locator('#action-outcome').textContent()) === 'restarted beta',
      {
        what: 'restarted',
      },
    );

    await page.getByRole('button', { name: 'Delete beta' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(row('beta').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Delete beta' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await row('beta').waitFor({ state: 'detached' });
    const listed = await dashboard.serve.cli(['standing', 'list', '--json']);
    expect(listed.stdout).not.toContain('"beta"');
  });

  it('shows a change made elsewhere without a reload', async () => {
    let reloaded = false;
    page.once('load', () => {
      reloaded = true;
    });
    const created = await dashboard.serve.cli(['standing', 'create', 'delta', '--no-start']);
    expect(created.exitCode).toBe(0);
    await row('delta').waitFor({ timeout: 10_000 });
    await expect(row('delta').getByRole('cell').nth(2).textContent()).resolves.toBe('stopped');
    await dashboard.serve.cli(['standing', 'start', 'delta']);
    await eventually(
      async () => (await row('delta').getByRole('cell').nth(2).textContent()) === 'running',
      {
        what: 'delta running on the page',
      },
    );
    expect(reloaded).toBe(false);
    await page.screenshot({ path: path.join(docs, 'dashboard-sessions.png'), fullPage: true });
  });

  it('sends a message with Ctrl-Enter and shows the outcome, the terminal and the events', async () => {
    const stream = page.waitForResponse((response) =>
      response.url().startsWith(`${dashboard.origin}/api/v1/stream?`),
    );
    await page.goto(`${dashboard.origin}/sessions/alpha`);
    const streamed = await stream;
    expect(streamed.status()).toBe(200);
    expect(streamed.headers()['content-type']).toMatch(/^text\/event-stream/);
    expect(new URL(streamed.url()).searchParams.get('ref')).toBe('standing:alpha');
    // The session's recent events are there at once (replayed), before anything new happens.
    const events = page.getByRole('list', { name: 'Events' });
    await eventually(async () => (await events.getByRole('listitem').count()) > 0, {
      what: 'recent events on the page',
    });
    const before = await events.getByRole('listitem').count();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('hello from the dashboard');
    await message.press('Control+Enter');
    const status = page.locator('#send-outcome');
    await eventually(async () => /^delivered to alpha/.test((await status.textContent()) ?? ''), {
      what: 'delivered',
    });
    await expect(
      page.getByRole('status').filter({ hasText: 'delivered to alpha' }).count(),
    ).resolves.toBe(1);
    const terminal = page.getByRole('region', { name: 'Terminal' });
    await eventually(
      // The fake agent shows each prompt's header line: ours is framed `[cli · dashboard · tag]`.
      async () => ((await terminal.textContent()) ?? '').includes('[cli · dashboard · '),
      {
        what: 'the message in the Terminal',
      },
    );
    // The delivery's own events arrive live.
    await eventually(async () => ((await events.textContent()) ?? '').includes('standing.said'), {
      what: 'standing.said in the Events list',
    });
    expect(await events.getByRole('listitem').count()).toBeGreaterThan(before);
    expect(await unnamedControls(page)).toEqual([]);
  });

  it('shows a permission request live and decides it as the dashboard', async () => {
    await waitForTurns(dashboard.serve, 'standing:alpha', 2);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('go\nFAKE:suggest\nFAKE:tool Bash npm test');
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.locator('#permissions section');
    await card.waitFor();
    await expect(card.getByRole('button', { name: 'Allow', exact: true }).count()).resolves.toBe(1);
    await expect(card.getByRole('button', { name: 'Allow always' }).count()).resolves.toBe(1);
    await page.screenshot({ path: path.join(docs, 'dashboard-session.png'), fullPage: true });
    await card.getByRole('textbox', { name: 'Reason' }).fill('not on a Friday');
    await card.getByRole('button', { name: 'Deny' }).click();
    await card.waitFor({ state: 'detached' });
    const denied = await eventually(async () =>
      (await dashboard.events()).find((event) => event['event'] === 'permission.denied'),
    );
    expect(denied).toMatchObject({ ref: 'standing:alpha', tool: 'Bash', surface: 'dashboard' });

    await waitForTurns(dashboard.serve, 'standing:alpha', 3);
    await message.fill('again\nFAKE:tool Bash make');
    await message.press('Control+Enter');
    const second = page.locator('#permissions section');
    await second.waitFor();
    await expect(second.getByRole('button', { name: 'Allow always' }).count()).resolves.toBe(0);
    await second.getByRole('button', { name: 'Allow', exact: true }).click();
    await second.waitFor({ state: 'detached' });
    const allowed = await eventually(async () =>
      (await dashboard.events()).find((event) => event['event'] === 'permission.allowed'),
    );
    expect(allowed).toMatchObject({ ref: 'standing:alpha', surface: 'dashboard' });
  });
});
