import { describe, expect, it } from 'vitest';
import {
  isValidName,
  parseStandingRef,
  parseWorkItemRef,
  sameWorkItem,
  standingRef,
  standingTarget,
  workItemRef,
  workItemSlug,
  workItemTarget,
} from '../../src/refs.js';

describe('the name grammar', () => {
  it.each([
    ['a', true],
    ['sup', true],
    ['sup-2', true],
    ['a1-b2-c3', true],
    ['x'.repeat(40), true],
    ['x'.repeat(41), false],
    ['', false],
    ['-sup', false],
    ['sup-', false],
    ['Sup', false],
    ['su_p', false],
    ['su p', false],
    ['abc\n', false],
    ['\nabc', false],
    ['ab\nc', false],
    ['sup.2', false],
    ['../x', false],
  ])('%j → %s', (name, valid) => {
    expect(isValidName(name)).toBe(valid);
  });
  it('refuses anything that is not a string', () => {
    expect(isValidName(undefined)).toBe(false);
    expect(isValidName(12)).toBe(false);
  });
});

describe('parseStandingRef', () => {
  it.each([
    ['standing:sup', 'sup'],
    ['standing:sup-2', 'sup-2'],
    ['standing:Sup', undefined],
    ['standing:sup\n', undefined],
    ['standing:', undefined],
    ['sup', undefined],
    ['github:octo/repo#1', undefined],
    ['Standing:sup', undefined],
  ])('%j → %j', (ref, name) => {
    expect(parseStandingRef(ref)).toBe(name);
  });
  it('round-trips with standingRef', () => {
    expect(parseStandingRef(standingRef('sup'))).toBe('sup');
  });
});

describe('parseWorkItemRef', () => {
  const item = (host: string, owner: string, repo: string, number: number) => ({
    host,
    owner,
    repo,
    number,
  });
  it.each([
    ['github:octo/repo#12', item('github.com', 'octo', 'repo', 12)],
    ['github:ghe.example.com/octo/repo#7', item('ghe.example.com', 'octo', 'repo', 7)],
    ['github:GHE.Example.com:8443/octo/repo#7', item('ghe.example.com:8443', 'octo', 'repo', 7)],
    ['https://github.com/octo/repo/issues/12', item('github.com', 'octo', 'repo', 12)],
    ['https://github.com/octo/repo/pull/40', item('github.com', 'octo', 'repo', 40)],
    ['https://github.com/octo/repo/pull/40/files', undefined],
    [
      'https://github.com/octo/repo/issues/12#issuecomment-1',
      item('github.com', 'octo', 'repo', 12),
    ],
    [
      'https://ghe.example.com/Octo/my.repo/issues/3',
      item('ghe.example.com', 'Octo', 'my.repo', 3),
    ],
    ['github:octo/repo#0', undefined],
    ['github:octo/repo#-1', undefined],
    ['github:octo/repo', undefined],
    ['github:octo/..#1', undefined],
    ['standing:sup', undefined],
    ['http://github.com/octo/repo/issues/1', undefined],
    ['github:octo/repo#12\n', undefined],
  ])('%j', (ref, expected) => {
    expect(parseWorkItemRef(ref)).toEqual(expected);
  });

  it('normalises an issue URL and a ref to the same canonical ref', () => {
    const fromUrl = parseWorkItemRef('https://github.com/octo/repo/issues/12');
    const fromRef = parseWorkItemRef('github:octo/repo#12');
    expect(fromUrl && workItemRef(fromUrl)).toBe('github:octo/repo#12');
    expect(fromUrl && fromRef && sameWorkItem(fromUrl, fromRef)).toBe(true);
    expect(workItemRef(item('ghe.example.com', 'o', 'r', 1))).toBe('github:ghe.example.com/o/r#1');
  });

  it('compares work items ignoring case of host, owner and repo, never of the number', () => {
    expect(
      sameWorkItem(item('GitHub.com', 'Octo', 'Repo', 1), item('github.com', 'octo', 'repo', 1)),
    ).toBe(true);
    expect(
      sameWorkItem(item('github.com', 'octo', 'repo', 1), item('github.com', 'octo', 'repo', 2)),
    ).toBe(false);
  });
});

describe('tmux target names', () => {
  it('names standing sessions loop-standing-<name>', () => {
    expect(standingTarget('sup')).toBe('loop-standing-sup');
  });

  it('names a plain work item loop-gh-<owner>-<repo>-<n>', () => {
    expect(workItemTarget(item('github.com', 'octo', 'repo', 12))).toBe('loop-gh-octo-repo-12');
    expect(workItemSlug(item('github.com', 'octo', 'repo', 12))).toBe('octo-repo-12');
  });

  it('names one work item the same whatever the case, as GitHub does', () => {
    expect(workItemTarget(item('github.com', 'Octo', 'Repo', 12))).toBe('loop-gh-octo-repo-12');
    expect(workItemTarget(item('GHE.example.com', 'Octo', 're.po', 1))).toBe(
      workItemTarget(item('ghe.example.com', 'octo', 'RE.PO', 1)),
    );
  });

  it('adds a hash when sanitising lost information, so the mapping stays injective', () => {
    const targets = [
      item('github.com', 'octo', 'repo', 12),
      item('github.com', 'octo', 're.po', 12),
      item('github.com', 'octo', 're_po', 12),
      item('github.com', 'octo', 're-po', 12),
      item('github.com', 'octo-re', 'po', 12),
      item('github.com', 'octo-re-po', 'x', 12),
      item('ghe.example.com', 'octo', 'repo', 12),
      item('github.com', 'octo', 'repo', 1),
      item('github.com', 'octo', 'repo-1', 2),
    ].map(workItemTarget);
    expect(new Set(targets).size).toBe(targets.length);
    for (const target of targets) expect(target).toMatch(/^loop-gh-[a-z0-9-]+$/);
    expect(targets[1]).toMatch(/^loop-gh-octo-re-po-12-[0-9a-f]{8}$/);
  });

  function item(host: string, owner: string, repo: string, number: number) {
    return { host, owner, repo, number };
  }
});
