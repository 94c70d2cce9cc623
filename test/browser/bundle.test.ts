import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dashboardCss } from '../../src/dashboard/dashboard-css.js';
import { renderAppPage, renderLoginPage } from '../../src/dashboard/render-pages.js';

const clientDir = path.resolve('dist/dashboard-client');

describe('the dashboard client (docs/dashboard.md)', () => {
  it('is under 200 KB gzipped, script and stylesheet together', async () => {
    const names = (await readdir(clientDir)).filter((name) => name.endsWith('.js'));
    expect(names).toContain('dashboard.js');
    const files = await Promise.all(names.map((name) => readFile(path.join(clientDir, name))));
    const bytes = gzipSync(Buffer.concat([...files, Buffer.from(dashboardCss)])).length;
    expect(bytes).toBeLessThan(200 * 1024);
  });

  it('loads nothing from another origin: no URL in the client, the pages or the stylesheet', async () => {
    const names = (await readdir(clientDir)).filter((name) => name.endsWith('.js'));
    const texts = await Promise.all(
      names.map((name) => readFile(path.join(clientDir, name), 'utf8')),
    );
    const pages = [renderAppPage('x'), renderLoginPage('message'), dashboardCss];
    for (const text of [...texts, ...pages]) {
      // Imports are relative; the only absolute paths are this origin's.
      expect(text).not.toMatch(/(?:src|href|import)\s*=?\s*["'`](?:https?:)?\/\//);
      expect(text).not.toMatch(/@import|url\(/);
    }
    for (const page of pages.slice(0, 2)) {
      expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(page).not.toMatch(/\sstyle=|<style/);
    }
  });

  it('ships in the package (dist/ is in package.json files)', async () => {
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('dist/');
  });
});
