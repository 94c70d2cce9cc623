import { describe, expect, it } from 'vitest';
import { formatInstance } from '../../../src/cli/format-instance.js';

describe('formatInstance', () => {
  it('shows an unnamed open instance with nothing declared', () => {
    expect(formatInstance({ name: '', scope: { mode: 'open', workItems: [] }, managed: [] })).toBe(
      'instance: (unnamed) · scope open\n\ndeclared work items: none\n\nmanaged work items: none',
    );
  });

  it('lists declared and managed work items with where they came from', () => {
    const text = formatInstance({
      name: 'laptop-b',
      scope: { mode: 'addressed', workItems: ['github:octo/repo#12'] },
      managed: [
        {
          ref: 'github:octo/repo#12',
          sources: ['declared', 'session'],
          url: 'https://github.com/octo/repo/issues/12',
        },
      ],
      warnings: [],
    });
    expect(text).toContain('instance: laptop-b · scope addressed');
    expect(text).toContain('declared work items:\n  github:octo/repo#12');
    expect(text).toContain(
      'managed work items:\n  github:octo/repo#12  declared, session  https://github.com/octo/repo/issues/12',
    );
  });
});
