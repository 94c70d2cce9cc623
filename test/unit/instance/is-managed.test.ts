import { describe, expect, it } from 'vitest';
import { isManaged, type ManagedFacts } from '../../../src/instance/is-managed.js';
import type { WorkItemRef } from '../../../src/refs.js';

const item: WorkItemRef = { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 };
const ghes: WorkItemRef = { host: 'ghe.example.com', owner: 'octo', repo: 'repo', number: 12 };
const other: WorkItemRef = { ...item, number: 13 };
const shouting: WorkItemRef = { host: 'GitHub.com', owner: 'OCTO', repo: 'Repo', number: 12 };

const facts = (partial: Partial<ManagedFacts>): ManagedFacts => ({
  declared: [],
  liveSessions: [],
  startRecords: [],
  ...partial,
});

describe('isManaged', () => {
  it.each<[string, ManagedFacts, string[]]>([
    ['nothing known', facts({}), []],
    ['declared as a ref', facts({ declared: ['github:octo/repo#12'] }), ['declared']],
    [
      'declared as a pull-request URL in another case',
      facts({ declared: ['https://github.com/Octo/REPO/pull/12'] }),
      ['declared'],
    ],
    [
      'declared as an issue URL',
      facts({ declared: ['https://github.com/octo/repo/issues/12'] }),
      ['declared'],
    ],
    ['another number declared', facts({ declared: ['github:octo/repo#13'] }), []],
    ['declared on another host', facts({ declared: ['github:ghe.example.com/octo/repo#12'] }), []],
    ['an unreadable declaration is skipped', facts({ declared: ['octo/repo#12', ''] }), []],
    ['a live session', facts({ liveSessions: [other, shouting] }), ['session']],
    ['a live session on another item', facts({ liveSessions: [other] }), []],
    [
      'a start by this instance',
      facts({ startRecords: [{ ref: shouting, instance: 'alpha', stopped: false }] }),
      ['started'],
    ],
    [
      'a start by another instance',
      facts({ startRecords: [{ ref: item, instance: 'beta', stopped: false }] }),
      [],
    ],
    [
      'a start by an unnamed instance',
      facts({ startRecords: [{ ref: item, instance: '', stopped: false }] }),
      [],
    ],
    [
      'a start a stop has ended',
      facts({ startRecords: [{ ref: item, instance: 'alpha', stopped: true }] }),
      [],
    ],
    [
      'an ended start and a later one',
      facts({
        startRecords: [
          { ref: item, instance: 'alpha', stopped: true },
          { ref: item, instance: 'alpha', stopped: false },
        ],
      }),
      ['started'],
    ],
    [
      'every source at once, in order',
      facts({
        startRecords: [{ ref: item, instance: 'alpha', stopped: false }],
        liveSessions: [item],
        declared: ['github:octo/repo#12'],
      }),
      ['declared', 'session', 'started'],
    ],
  ])('%s', (_label, known, sources) => {
    expect(isManaged(item, known, 'alpha')).toEqual({ managed: sources.length > 0, sources });
  });

  it('reads an unnamed instance’s own starts as its own', () => {
    const known = facts({ startRecords: [{ ref: item, instance: '', stopped: false }] });
    expect(isManaged(item, known, '')).toEqual({ managed: true, sources: ['started'] });
  });

  it('tells a GitHub Enterprise item from the github.com one', () => {
    const known = facts({ declared: ['github:GHE.example.com/octo/repo#12'] });
    expect(isManaged(ghes, known, 'alpha').managed).toBe(true);
    expect(isManaged(item, known, 'alpha').managed).toBe(false);
  });
});
