import { describe, expect, it } from 'vitest';
import { bootPrompt, standingBootDirective } from '../../../src/harness/boot-directive.js';

describe('boot directive', () => {
  const directive = standingBootDirective({
    name: 'sup',
    tmuxName: 'loop-standing-sup',
    instance: 'laptop-b',
    slackThread: true,
  });
  it('names the session, says it owns no work item, and how people reach it and how to answer', () => {
    expect(directive).toContain('`sup`');
    expect(directive).toContain('laptop-b');
    expect(directive).toContain('own no GitHub issue');
    expect(directive).toContain('Slack thread');
    expect(directive).toContain('the-loop standing say sup');
    expect(directive).toContain("tmux attach -t '=loop-standing-sup'");
    expect(directive).toContain('the-loop post');
  });
  it('appends the brief after the directive, which the brief cannot remove', () => {
    expect(bootPrompt(directive, '  Watch the builds.  ')).toBe(
      `${directive}\n\nWatch the builds.`,
    );
    expect(bootPrompt(directive, '')).toBe(directive);
    expect(bootPrompt(directive, undefined)).toBe(directive);
  });
});
