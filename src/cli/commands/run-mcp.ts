import { Writable } from 'node:stream';
import type { CommandHandler } from '../command-context.js';
import { readVersion } from '../cli-io.js';

/**
 * `the-loop mcp` (docs/design.md §20): an MCP server on stdin/stdout over serve's control socket,
 * found as every command finds it. Inside a session (THE_LOOP_SESSION_TOKEN) it speaks as that
 * session. Runs until the client closes stdin.
 */
export const runMcp: CommandHandler = async (context) => {
  // Loaded here, not at the top: the MCP SDK and zod would add most of a second to every command.
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../../mcp/create-mcp-server.js'),
  ]);
  const loop = await context.loop();
  const { env } = context.io;
  const session = env['THE_LOOP_SESSION_TOKEN']
    ? env['THE_LOOP_SESSION'] || 'this session'
    : undefined;
  const server = createMcpServer({
    loop,
    version: await readVersion(),
    facts: { ...(session ? { session } : {}), person: env['USER'] || 'operator' },
  });
  const sink = context.io.stdout;
  // The transport writes JSON-RPC lines; the io's stdout is a text sink (a test's recorder too).
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      sink.write(chunk.toString());
      done();
    },
  });
  const transport = new StdioServerTransport(context.io.stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    context.io.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
};
