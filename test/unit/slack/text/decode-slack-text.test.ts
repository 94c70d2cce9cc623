import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSlackText, mentionedUserIds } from '../../../../src/slack/text/decode-slack-text.js';
import { escapeMrkdwn } from '../../../../src/slack/text/escape-mrkdwn.js';

const names = { users: { U1: 'dana', W2: 'ops-bot' }, channels: { C1: 'general' } };

describe('decodeSlackText', () => {
  it.each([
    ['<@U1> look', '@dana look'],
    ['<@U9>', '@U9'],
    ['<@W2>', '@ops-bot'],
    ['<@U9|sam>', '@sam'],
    ['<@U1|label wins>', '@label wins'],
    ['<#C1>', '#general'],
    ['<#C9|ops>', '#ops'],
    ['<#C9>', '#C9'],
    ['<#C9|>', '#C9'],
    ['<!here> now', '@here now'],
    ['<!channel>', '@channel'],
    ['<!everyone>', '@everyone'],
    ['<!here|@here>', '@here'],
    ['<!subteam^S1|@team>', '@team'],
    ['<!subteam^S1|team>', '@team'],
    ['<!subteam^S1>', '@S1'],
    ['<!date^1700000000^{date}|Nov 14>', 'Nov 14'],
    ['<https://x.y|the docs>', 'the docs (https://x.y)'],
    ['<https://x.y>', 'https://x.y'],
    ['<https://x.y|https://x.y>', 'https://x.y'],
    ['<https://x.y/?a=1&amp;b=2>', 'https://x.y/?a=1&b=2'],
    ['<mailto:a@b.c|a@b.c>', 'a@b.c'],
    ['<mailto:a@b.c>', 'a@b.c'],
    ['<mailto:a@b.c|Ana>', 'Ana (a@b.c)'],
    ['a &amp; b &lt; c &gt; d', 'a & b < c > d'],
    ['&lt;@U1&gt;', '<@U1>'],
    ['&amp;lt;', '&lt;'],
    ['&amp;amp;', '&amp;'],
    ['&quot; &nbsp; stay', '&quot; &nbsp; stay'],
    ['if a <b then', 'if a <b then'],
    ['<https://x.y|a &amp; b>', 'a & b (https://x.y)'],
    ['<@constructor>', '@constructor'],
    ['<@toString>', '@toString'],
  ])('%j → %j', (text, expected) => {
    expect(decodeSlackText(text, names)).toBe(expected);
  });

  it('works without any names', () => {
    expect(decodeSlackText('<@U1> in <#C1>')).toBe('@U1 in #C1');
  });

  it('gives back exactly what a person typed, whatever Slack had to escape', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '<',
            '>',
            '&',
            'l',
            't',
            ';',
            '@',
            'U',
            '1',
            'a',
            ' ',
            '|',
            '#',
            '!',
          ),
        }),
        (typed) => {
          expect(decodeSlackText(escapeMrkdwn(typed), names)).toBe(typed);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves text without < or & unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !text.includes('<') && !text.includes('&')),
        (text) => {
          expect(decodeSlackText(text, names)).toBe(text);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(typeof decodeSlackText(text, names)).toBe('string');
      }),
    );
  });
});

describe('mentionedUserIds', () => {
  it.each([
    ['<@U1> and <@W2|x> and <@U1> again', ['U1', 'W2']],
    ['<#C1> <!here> <!subteam^S1|@t> <https://x.y>', []],
    ['&lt;@U3&gt; is text', []],
    ['<@u1> <@B1> <@U1 >', []],
    ['no mentions', []],
  ])('%j → %j', (text, expected) => {
    expect(mentionedUserIds(text)).toEqual(expected);
  });
});
