import { describe, expect, it } from 'vitest';
import type { InstanceConfig } from '../../../src/config/types.js';
import { describeInstance } from '../../../src/instance/describe-instance.js';
import type { WorkItemRef } from '../../../src/refs.js';

const instance: InstanceConfig = {
  name: 'laptop-b',
  scope: {
    mode: 'addressed',
    workItems: ['github:octo/repo#12', 'https://GHE.example.com/octo/repo/pull/40'],
  },
};
const item: WorkItemRef = { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 };
const ghes: WorkItemRef = { host: 'ghe.example.com', owner: 'octo', repo: 'repo', number: 40 };

describe('describeInstance', () => {
  it('answers GET /api/v1/instance with refs, sources and issue URLs', () => {
    const described = describeInstance(instance, [
      { item, sources: ['declared', 'session'] },
      { item: ghes, sources: ['declared'] },
    ]);
    expect(described).toEqual({
      name: 'laptop-b',
      scope: {
        mode: 'addressed',
        workItems: ['github:octo/repo#12', 'github:ghe.example.com/octo/repo#40'],
      },
      managed: [
        {
          ref: 'github:octo/repo#12',
          sources: ['declared', 'session'],
          url: 'https://github.com/octo/repo/issues/12',
        },
        {
          ref: 'github:ghe.example.com/octo/repo#40',
          sources: ['declared'],
          url: 'https://ghe.example.com/octo/repo/issues/40',
        },
      ],
      warnings: [],
    });
  });

  it('merges one work item listed twice, sources in their fixed order', () => {
    const shouting: WorkItemRef = { ...item, host: 'GitHub.com', owner: 'OCTO' };
    const described = describeInstance(instance, [
      { item, sources: ['started'] },
      { item: { ...item, number: 13 }, sources: ['session'] },
      { item: shouting, sources: ['session', 'declared'] },
    ]);
    expect(described.managed.map(({ ref, sources }) => [ref, sources])).toEqual([
      ['github:octo/repo#12', ['declared', 'session', 'started']],
      ['github:octo/repo#13', ['session']],
    ]);
  });

  it('keeps a GHES host with a port in the URL', () => {
    const withPort: WorkItemRef = { ...ghes, host: 'ghe.example.com:8443' };
    const [entry] = describeInstance(instance, [{ item: withPort, sources: ['session'] }]).managed;
    expect(entry?.url).toBe('https://ghe.example.com:8443/octo/repo/issues/40');
  });

  it('describes an unnamed open instance with nothing managed, and passes warnings on', () => {
    const unnamed: InstanceConfig = { name: '', scope: { mode: 'open', workItems: [] } };
    expect(describeInstance(unnamed, [], ['instance.scope.mode: bad'])).toEqual({
      name: '',
      scope: { mode: 'open', workItems: [] },
      managed: [],
      warnings: ['instance.scope.mode: bad'],
    });
  });
});
