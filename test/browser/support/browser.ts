import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), or the one THE_LOOP_CHROMIUM names. */
export const chromiumPath = process.env['THE_LOOP_CHROMIUM'] || '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserUnavailable: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install it (apt-get install chromium) or set THE_LOOP_CHROMIUM`;

if (browserUnavailable !== undefined) {
  process.stderr.write(`browser tier skipped: ${browserUnavailable}\n`);
}

/**
 * A headless Chromium with nothing of its own going on: no GPU, no QUIC, no first-run pages, no
 * background traffic, no component updates or sync. Playwright gives each launch a fresh
 * `--user-data-dir` of its own and each context its own cookie jar.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
