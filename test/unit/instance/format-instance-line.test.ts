import { describe, expect, it } from 'vitest';
import type { InstanceConfig, ScopeMode } from '../../../src/config/types.js';
import { formatInstanceLine } from '../../../src/instance/format-instance-line.js';

const instance = (name: string, mode: ScopeMode, count: number): InstanceConfig => ({
  name,
  scope: { mode, workItems: Array.from({ length: count }, (_, n) => `github:o/r#${n + 1}`) },
});

describe('formatInstanceLine', () => {
  it.each([
    [
      instance('laptop-b', 'addressed', 2),
      'instance: laptop-b · scope addressed (2 declared work items)',
    ],
    [instance('ci-box', 'locked', 1), 'instance: ci-box · scope locked (1 declared work item)'],
    [instance('', 'open', 0), 'instance: (unnamed) · scope open'],
    [instance('', 'locked', 0), 'instance: (unnamed) · scope locked'],
  ])('%j', (config, line) => {
    expect(formatInstanceLine(config)).toBe(line);
  });
});
