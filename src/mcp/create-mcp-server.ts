import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asLoopError } from '../errors.js';
import type { Loop } from '../sdk/create-loop.js';
import { mcpTools, type McpFacts } from './mcp-tools.js';

/**
 * `the-loop mcp`'s server (docs/design.md §20): the tools of mcp-tools.ts over one SDK client.
 * `post` is offered only inside a session. A refusal is a tool error (`isError`) whose text is
 * the LoopError's code and message, which names the remedy; it never ends the server.
 */
export function createMcpServer(options: {
  readonly loop: Loop;
  readonly version: string;
  readonly facts: McpFacts;
}): McpServer {
  const { loop, facts } = options;
  const server = new McpServer(
    { name: 'the-loop', version: options.version },
    {
      instructions:
        'the-loop keeps AI coding agents in tmux sessions. These tools list the sessions of this ' +
        'instance and send a message to one. ' +
        (facts.session
          ? `You are the session ${facts.session}; \`post\` answers your people.`
          : 'Run inside a session, `post` also answers its people.'),
    },
  );
  for (const tool of mcpTools) {
    if (tool.sessionOnly && !facts.session) continue;
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.inputSchema },
      async (input: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const value = await tool.run(loop, input, facts);
          return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
        } catch (error) {
          const failure = asLoopError(error);
          return {
            isError: true,
            content: [{ type: 'text', text: `${failure.code}: ${failure.message}` }],
          };
        }
      },
    );
  }
  return server;
}
