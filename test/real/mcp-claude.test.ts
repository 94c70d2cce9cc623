import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, toolUse } from '../fakes/fake-anthropic/scripted-answer.js';
import type { RecordedRequest } from '../fakes/fake-anthropic/start-fake-anthropic.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { compareVersions } from '../../src/harness/claude-versions.js';
import { claudeCodeVersion } from './claude-code-install.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { eventMatching, startRealClaude, userTexts, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

/**
 * From 2.1.332 on (test/real/FINDINGS.md (h)), Claude Code defers MCP tools: the request names them
 * in a system reminder and offers `ToolSearch`; the model must load a tool's schema with
 * `ToolSearch {query: "select:<name>"}` before it can call it. On 2.1.197 the tools are listed.
 */
const defersMcpTools = compareVersions(claudeCodeVersion(), '2.1.332') >= 0;

/** The tool_result blocks Claude Code sent back in a request, as text. */
function toolResults(request: RecordedRequest): string[] {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  const results: string[] = [];
  for (const message of body.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block['type'] !== 'tool_result') continue;
      const content = block['content'];
      if (typeof content === 'string') results.push(content);
      else if (Array.isArray(content)) {
        for (const part of content as Array<{ type?: string; text?: string }>) {
          if (part.type === 'text' && typeof part.text === 'string') results.push(part.text);
        }
      }
    }
  }
  return results;
}

/**
 * Two standing sessions of the real Claude Code (docs/design.md §20): the model tells `alpha` to
 * call the-loop's MCP tool `say` (the fake Messages API answers a `tool_use` for
 * `mcp__the-loop__say`), Claude Code runs it with no permission dialog (the settings allow
 * `mcp__the-loop__*`), and `beta` gets the message framed as from `agent:alpha`.
 */
describe.skipIf(unavailable !== undefined)(
  'one real Claude Code messages another through MCP',
  () => {
    let claude: RealClaude;

    beforeAll(async () => {
      claude = await startRealClaude();
      for (const name of ['alpha', 'beta']) {
        const created = await claude.serve.cli(['standing', 'create', name]);
        expect(created.exitCode, created.stderr).toBe(0);
        await waitForTurns(claude.serve, `standing:${name}`, 1);
      }
    }, 180_000);

    afterAll(async () => {
      await claude?.dispose();
    });

    it('alpha calls mcp__the-loop__say and beta receives the message as from agent:alpha', async () => {
      claude.fake.script(
        ...(defersMcpTools ? [toolUse('ToolSearch', { query: 'select:mcp__the-loop__say' })] : []),
        toolUse('mcp__the-loop__say', { name: 'beta', text: 'hello beta, this is alpha' }),
        text('Told beta.'),
      );
      const said = await claude.serve.cli(['standing', 'say', 'alpha', 'tell beta hello'], {
        env: { USER: 'ana' },
      });
      expect(said.exitCode, said.stderr).toBe(0);

      const asked = await claude.requestWith('tell beta hello');
      const tools = (asked.body as { tools?: Array<{ name: string }> }).tools ?? [];
      if (defersMcpTools) {
        // Named in the deferred list, loadable through ToolSearch.
        expect(tools.map((tool) => tool.name)).toContain('ToolSearch');
        expect(JSON.stringify((asked.body as { messages?: unknown }).messages)).toContain(
          'mcp__the-loop__say',
        );
      } else {
        expect(tools.map((tool) => tool.name)).toContain('mcp__the-loop__say');
      }

      const received = await claude.requestWith('hello beta, this is alpha', 90_000);
      expect(userTexts(received).at(-1)).toMatch(
        /^\[agent:alpha · [0-9a-f]{4}\]\n\nhello beta, this is alpha$/,
      );
      const logged = await eventMatching(
        claude,
        (event) => event.event === 'agent.message',
        'agent.message',
      );
      expect(logged).toMatchObject({ from: 'standing:alpha', to: 'standing:beta' });

      // The tool's answer went back to alpha's model: the say outcome, not an error.
      const followUp = await claude.fake.waitForRequest(
        (request) =>
          request.kind === 'turn' &&
          toolResults(request).some((result) => result.includes('deliveryId')),
        { timeoutMs: 60_000, what: "alpha's request carrying the tool result" },
      );
      expect(toolResults(followUp).join('\n')).toMatch(/"outcome": "(delivered|queued)"/);
      // No permission dialog stopped it.
      expect(await claude.screen('alpha')).not.toMatch(/Do you want to proceed\?/);
    }, 180_000);
  },
);
