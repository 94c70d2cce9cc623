import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import type { InstanceConfig, ScopeMode } from '../../../src/config/types.js';
import { formatInstance, type InstanceReport } from '../../../src/cli/format.js';
import { decideScope } from '../../../src/instance/decide-scope.js';
import { parseAddress, type AddressResult } from '../../../src/instance/parse-address.js';
import {
  codeSpan,
  fencedBlocks,
  readDoc,
  sourceText,
  tableRows,
  unknownKeyMentions,
} from './markdown-doc.js';

const doc = readDoc('instances.md');
const configPath = '/home/sam/.the-loop/config.yaml';

/** The `reads as` column in the parser's terms. */
function expectedAddress(cell: string): AddressResult['kind'] | `addressed:${string}` {
  const name = /^addresses `([^`]+)`$/.exec(cell)?.[1];
  if (name !== undefined) return `addressed:${name}`;
  const kinds: Record<string, AddressResult['kind']> = {
    'no token': 'none',
    malformed: 'malformed',
    ambiguous: 'ambiguous',
  };
  const kind = kinds[cell];
  if (kind === undefined) throw new Error(`unknown result "${cell}" in docs/instances.md`);
  return kind;
}

const read = (result: AddressResult) =>
  result.kind === 'addressed' ? `addressed:${result.name}` : result.kind;

describe('docs/instances.md', () => {
  describe('the address token examples', () => {
    const rows = tableRows(doc, 'comment');

    it('has examples of every kind', () => {
      const kinds = new Set(rows.map(([, result]) => expectedAddress(result ?? '').split(':')[0]));
      expect([...kinds].sort()).toEqual(['addressed', 'ambiguous', 'malformed', 'none']);
      expect(rows.length).toBeGreaterThanOrEqual(25);
    });

    it.each(rows.map(([comment = '', result = '']) => [codeSpan(comment), result]))(
      '%j reads as %s',
      (comment, result) => {
        if (comment === undefined) throw new Error('each example must be one code span');
        expect(read(parseAddress(comment))).toBe(expectedAddress(result));
      },
    );
  });

  describe('the table of modes', () => {
    const laptopB = (mode: ScopeMode): InstanceConfig => ({
      name: 'laptop-b',
      scope: { mode, workItems: [] },
    });
    const situations: Record<string, AddressResult> = {
      'has no address': { kind: 'none' },
      'has a malformed address': parseAddress('instance:LAPTOP'),
      'addresses two different instances': parseAddress('instance:laptop-a instance:laptop-b'),
    };
    const addressOf = (cell: string): AddressResult => {
      const span = /`([^`]+)`/.exec(cell)?.[1];
      const address = span !== undefined ? parseAddress(span) : situations[cell];
      if (!address) throw new Error(`unknown situation "${cell}"`);
      return address;
    };
    const rows = tableRows(doc, 'the comment');

    it('covers every kind of address', () => {
      expect(rows.map(([cell = '']) => addressOf(cell).kind).sort()).toEqual([
        'addressed',
        'addressed',
        'ambiguous',
        'malformed',
        'none',
      ]);
    });

    it.each(rows)('a comment that %s', (situation, open, addressed, locked, managed) => {
      const address = addressOf(situation);
      const acts = (mode: ScopeMode, isManaged: boolean) =>
        decideScope(laptopB(mode), address, isManaged).acts ? 'acts' : 'refuses';
      expect([open, addressed, locked]).toEqual([
        acts('open', false),
        acts('addressed', false),
        acts('locked', false),
      ]);
      for (const mode of ['open', 'addressed', 'locked'] as const)
        expect(managed).toBe(acts(mode, true));
    });
  });

  describe('the decision, row by row', () => {
    const rows = tableRows(doc, '#');
    const named = (mode: ScopeMode, name = 'laptop-b'): InstanceConfig => ({
      name,
      scope: { mode, workItems: [] },
    });
    const to = (name: string): AddressResult => ({ kind: 'addressed', name });
    const malformed: AddressResult = { kind: 'malformed', token: 'instance:X' };
    const ambiguous: AddressResult = { kind: 'ambiguous', names: ['laptop-a', 'laptop-b'] };
    // For each row, inputs that match it and no row above it.
    const witnesses: [InstanceConfig, AddressResult, boolean][][] = [
      [
        [named('open'), malformed, true],
        [named('locked'), malformed, false],
      ],
      [
        [named('open'), ambiguous, true],
        [named('addressed'), ambiguous, false],
      ],
      [
        [named('open'), to('laptop-a'), true],
        [named('open', ''), to('laptop-b'), false],
      ],
      [
        [named('locked'), { kind: 'none' }, true],
        [named('addressed'), to('laptop-b'), true],
      ],
      [
        [named('open'), { kind: 'none' }, false],
        [named('open'), to('laptop-b'), false],
      ],
      [
        [named('locked'), { kind: 'none' }, false],
        [named('locked'), to('laptop-b'), false],
      ],
      [[named('addressed'), to('laptop-b'), false]],
      [[named('addressed'), { kind: 'none' }, false]],
    ];

    it('has the eight rows of the decision, numbered in order', () => {
      expect(rows.map(([number]) => number)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    });

    it.each(rows.map((row, index) => [row[0], row[2], row[3], witnesses[index] ?? []] as const))(
      'row %s decides %s (acts: %s)',
      (_number, outcome, acts, inputs) => {
        expect(inputs.length).toBeGreaterThan(0);
        for (const [instance, address, managed] of inputs) {
          const decision = decideScope(instance, address, managed);
          expect(`\`${decision.outcome}\``).toBe(outcome);
          expect(decision.acts ? 'yes' : 'no').toBe(acts);
        }
      },
    );
  });

  describe('config resolution never widens', () => {
    const rows = tableRows(doc, 'config');

    it.each(rows)('%s', (config, mode, name, warning) => {
      const text = codeSpan(config);
      if (text === undefined) throw new Error('each config must be one code span');
      const resolved = resolveConfig(parse(text), configPath);
      expect(`\`${resolved.instance.scope.mode}\``).toBe(mode);
      expect(resolved.instance.name === '' ? '(unnamed)' : `\`${resolved.instance.name}\``).toBe(
        name,
      );
      expect(resolved.instanceWarnings.length > 0 ? 'yes' : 'no').toBe(warning);
    });

    it('shows every mode and both a named and an unnamed result', () => {
      expect(new Set(rows.map((row) => row[1]))).toEqual(
        new Set(['`open`', '`addressed`', '`locked`']),
      );
      expect(rows.some((row) => row[2] === '(unnamed)')).toBe(true);
    });
  });

  it('has YAML examples that load without instance warnings', () => {
    const examples = fencedBlocks(doc, 'yaml');
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(resolveConfig(parse(example), configPath).instanceWarnings).toEqual([]);
    }
  });

  it('shows `the-loop instance` exactly as it prints the GET /api/v1/instance answer it shows', () => {
    const [answer] = fencedBlocks(doc, 'json');
    const printed = fencedBlocks(doc, '').find((block) => block.startsWith('instance: laptop-b'));
    const report = JSON.parse(answer ?? '') as InstanceReport;
    expect(`${formatInstance(report)}\n`).toBe(printed);
  });

  it('names no config key or event the code lacks', () => {
    expect(unknownKeyMentions(doc, sourceText('github', 'instance', 'replies'))).toEqual([]);
  });
});
