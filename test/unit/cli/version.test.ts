import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { formatHelp } from '../../../src/cli/format-help.js';
import { fakeIo } from './fake-io.js';

const { version } = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('the-loop --version', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const fake = fakeIo();
    expect(await main([flag], fake.io)).toBe(0);
    expect(fake.stdout()).toBe(`${version}\n`);
  });

  it('is named in the top-level help', () => {
    expect(formatHelp('')).toContain('the-loop --version');
  });
});
