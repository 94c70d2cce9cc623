import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import { parseKeywordCommand } from '../../../src/github/comment/parse-keyword-command.js';
import { maxWebhookBytes } from '../../../src/github/create-webhook-ingress.js';
import { decideGithub } from '../../../src/github/decide-github.js';
import { hiddenMarker } from '../../../src/github/github-comment.js';
import { githubRetryDelay } from '../../../src/github/github-retry-delay.js';
import { parseWorkItemRef, workItemTarget } from '../../../src/refs.js';
import { githubConfig } from '../../helpers/github-config.js';
import {
  codeSpan,
  fencedBlocks,
  readDoc,
  sourceText,
  tableRows,
  unknownKeyMentions,
} from './markdown-doc.js';

const doc = readDoc('github.md');
const configPath = '/home/dana/.the-loop/config.yaml';

describe('docs/github.md', () => {
  describe('the keyword examples', () => {
    const rows = tableRows(doc, 'comment');

    it('show a start, a stop, an ambiguous comment and comments that ask for nothing', () => {
      expect(new Set(rows.map((row) => row[1]))).toEqual(
        new Set(['start', 'stop', 'ambiguous', 'nothing']),
      );
    });

    it.each(rows.map(([comment = '', asks = '']) => [codeSpan(comment), asks]))(
      '%j asks for %s',
      (comment, asks) => {
        if (comment === undefined) throw new Error('each example must be one code span');
        const result = parseKeywordCommand(comment, 'the-loop');
        const read =
          result.kind === 'command'
            ? result.command
            : result.kind === 'none'
              ? 'nothing'
              : 'ambiguous';
        expect(read).toBe(asks);
      },
    );
  });

  it.each(tableRows(doc, 'work item'))('names the tmux session of %s', (ref, target) => {
    const item = parseWorkItemRef(codeSpan(ref) ?? '');
    if (!item) throw new Error(`${ref} is no work-item ref`);
    expect(`\`${workItemTarget(item)}\``).toBe(target);
  });

  it('quotes the start-up lines serve prints', () => {
    const config = (host: string, allowUnsigned: boolean) =>
      githubConfig({ http: { host, port: 3000 }, github: { webhook: { allowUnsigned } } });
    const printed = [
      decideGithub(config('127.0.0.1', false), {}),
      decideGithub(config('127.0.0.1', false), { GITHUB_TOKEN: 't' }),
      decideGithub(config('0.0.0.0', true), { GITHUB_TOKEN: 't' }),
    ].flatMap((decision) => (decision.on ? decision.plan.notes : [decision.reason]));
    const quoted = tableRows(doc, 'situation').map(([, line = '']) => codeSpan(line));
    expect(new Set(quoted)).toEqual(new Set(printed));
  });

  it('shows the hidden marker as the-loop writes it', () => {
    expect(fencedBlocks(doc, '')).toContain(`${hiddenMarker('laptop-b')}\n`);
    expect(doc).toContain(`\`${hiddenMarker('')}\``);
  });

  it('states the body limit and the retry schedule the code has', () => {
    expect(maxWebhookBytes).toBe(5 * 1024 * 1024);
    expect(doc).toContain('a body over 5 MB');
    const waits = [1, 2, 3, 4].map((attempt) => githubRetryDelay({ status: 502 }, attempt, 4, 0));
    expect(waits).toEqual([1_000, 2_000, 4_000, undefined]);
    expect(doc).toContain('up to 4 attempts, waiting 1 s, 2 s, then 4 s');
    const limits = [0, 3_600].map((seconds) =>
      githubRetryDelay({ status: 403, retryAfter: String(seconds) }, 1, 4, 0),
    );
    expect(limits).toEqual([1_000, 60_000]);
    expect(doc).toContain('at least 1 s and at most 60 s');
  });

  it('has YAML examples that the loader accepts', () => {
    const examples = fencedBlocks(doc, 'yaml');
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(resolveConfig(parse(example), configPath).instanceWarnings).toEqual([]);
    }
  });

  it('names the three environment variables decideGithub reads', () => {
    for (const name of ['GITHUB_TOKEN', 'GITHUB_WEBHOOK_SECRET', 'GITHUB_API_URL']) {
      expect(tableRows(doc, 'variable').map(([cell]) => cell)).toContain(`\`${name}\``);
      expect(sourceText('github')).toContain(`'${name}'`);
    }
  });

  it('names no config key or event the code lacks', () => {
    expect(unknownKeyMentions(doc, sourceText('github', 'instance', 'replies'))).toEqual([]);
  });
});
