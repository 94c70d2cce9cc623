import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents as readAgentEvents } from '../fakes/fake-agent-records.js';
import { agentPrompts } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import { readEvents } from '../helpers/read-events.js';
import {
  binPath,
  createServeFixture,
  waitForTurns,
  type ServeFixture,
} from '../helpers/run-serve.js';

/**
 * `the-loop mcp` driven by the real MCP client (docs/design.md §20): the SDK's Client over a
 * StdioClientTransport that spawns bin/the-loop, against a real serve whose sessions run the
 * fake agent. Outside a session it finds serve by --config; inside one by the session's own
 * THE_LOOP_* variables, and then speaks as that session's agent.
 */
let serve: ServeFixture;
const clients: Client[] = [];

const baseEnv = (): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '',
  HOME: process.env['HOME'] ?? '',
  USER: 'dana',
});

async function connectMcp(args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'the-loop-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [binPath, 'mcp', ...args], env }),
  );
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = answer.content.map((part) => part.text).join('');
  return { isError: answer.isError === true, text };
}

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

async function sessionToken(name: string): Promise<string> {
  const record = JSON.parse(
    await readFile(path.join(serve.stateRoot, 'standing', `${name}.json`), 'utf8'),
  ) as { sessionToken: string };
  return record.sessionToken;
}

/** Inside session `name`: the variables the-loop sets there, and no config to find. */
async function insideSession(name: string): Promise<Record<string, string>> {
  return {
    ...baseEnv(),
    THE_LOOP_SOCKET: path.join(serve.stateRoot, 'control.sock'),
    THE_LOOP_SESSION: `standing:${name}`,
    THE_LOOP_SESSION_TOKEN: await sessionToken(name),
  };
}

beforeAll(async () => {
  serve = await createServeFixture(() => ({
    standing: {
      autoStart: true,
      allowedRoots: ['work'],
      sessions: [
        { name: 'alpha', description: 'writes the code' },
        { name: 'beta', description: 'reviews it' },
      ],
    },
    agents: { maxMessagesPerMinute: 3 },
  }));
  await serve.start();
  await waitForTurns(serve, 'standing:alpha', 1);
  await waitForTurns(serve, 'standing:beta', 1);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await serve?.dispose();
});

describe('the-loop mcp, outside a session', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectMcp(['--config', serve.configPath], baseEnv());
  });

  it('offers exactly the read-and-say tools: nothing that starts, stops, creates, deletes or decides', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'get_instance',
      'get_session',
      'list_sessions',
      'say',
    ]);
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(40);
    const say = tools.find((tool) => tool.name === 'say');
    expect(say?.inputSchema.required).toEqual(['name', 'text']);
  });

  it('list_sessions shows every session with its kind, status and agent state', async () => {
    const { isError, text } = await call(client, 'list_sessions');
    expect(isError).toBe(false);
    expect(json(text)['sessions']).toEqual([
      {
        kind: 'standing',
        name: 'alpha',
        ref: 'standing:alpha',
        status: 'running',
        agentState: 'idle',
        description: 'writes the code',
      },
      {
        kind: 'standing',
        name: 'beta',
        ref: 'standing:beta',
        status: 'running',
        agentState: 'idle',
        description: 'reviews it',
      },
    ]);
  });

  it('get_session and get_instance answer what the API does; an unknown name is a tool error with the remedy', async () => {
    const got = await call(client, 'get_session', { name: 'beta' });
    expect(json(got.text)).toMatchObject({ name: 'beta', status: 'running', source: 'declared' });
    const instance = await call(client, 'get_instance');
    expect(json(instance.text)).toMatchObject({ scope: { mode: 'open' } });

    const unknown = await call(client, 'get_session', { name: 'nobody' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^session_unknown: /);
    expect(unknown.text).toContain('the-loop standing list');
    const item = await call(client, 'get_session', { name: 'github:octo/repo#9' });
    expect(item).toMatchObject({ isError: true, text: expect.stringContaining('list_sessions') });
  });

  it('say delivers, framed as the person who runs the client, and answers the outcome', async () => {
    const { isError, text } = await call(client, 'say', { name: 'beta', text: 'from dana' });
    expect(isError).toBe(false);
    expect(json(text)).toMatchObject({ outcome: 'delivered', deliveryId: expect.any(String) });
    const prompts = await agentPrompts(serve.agentHome);
    expect(prompts.find((prompt) => prompt.endsWith('from dana'))).toMatch(
      /^\[cli · dana via mcp · [0-9a-f]{4}\]\n\nfrom dana$/,
    );
    await waitForTurns(serve, 'standing:beta', 2);
  });

  it('a bad argument is refused by the schema, before serve is asked', async () => {
    const answer = await call(client, 'say', { name: 'beta' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('text');
  });
});

describe('the-loop mcp inside a session', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectMcp([], await insideSession('alpha'));
  });

  it('finds serve by the session variables and adds post', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'get_instance',
      'get_session',
      'list_sessions',
      'post',
      'say',
    ]);
    const posted = await call(client, 'post', { text: 'done with the build' });
    expect(posted.isError).toBe(false);
    // Slack and GitHub are off in this fixture: accepted, with nowhere to go.
    expect(json(posted.text)).toMatchObject({ targets: [] });
  });

  it('says as agent:alpha, records agent.message, refuses itself and stops at the limit', async () => {
    const first = await call(client, 'say', { name: 'beta', text: 'please review #1' });
    expect(first.isError, first.text).toBe(false);
    const { deliveryId } = json(first.text);
    expect((await agentPrompts(serve.agentHome)).at(-1)).toMatch(
      /^\[agent:alpha · [0-9a-f]{4}\]\n\nplease review #1$/,
    );
    const logged = await eventually(
      async () =>
        (await readEvents(path.join(serve.stateRoot, 'events.jsonl'))).find(
          (event) => event.event === 'agent.message',
        ),
      { what: 'agent.message' },
    );
    expect(logged).toMatchObject({ from: 'standing:alpha', to: 'standing:beta', deliveryId });
    await waitForTurns(serve, 'standing:beta', 3);

    const self = await call(client, 'say', { name: 'alpha', text: 'hello me' });
    expect(self.isError).toBe(true);
    expect(self.text).toMatch(/^self_message: .*post/);

    // The limit is 3 a minute: the refused say above did not count, so two more go through.
    for (const n of [2, 3]) {
      const sent = await call(client, 'say', { name: 'beta', text: `please review #${n}` });
      expect(sent.isError, sent.text).toBe(false);
      await waitForTurns(serve, 'standing:beta', 2 + n);
    }
    const limited = await call(client, 'say', { name: 'beta', text: 'please review #4' });
    expect(limited.isError).toBe(true);
    expect(limited.text).toMatch(/^rate_limited: .*agents\.maxMessagesPerMinute.*wait \d+ s/);
    expect(await agentPrompts(serve.agentHome)).not.toContain(
      expect.stringContaining('please review #4'),
    );

    // People are never limited: the CLI still reaches beta at once.
    const person = await serve.cli(['standing', 'say', 'beta', 'from a person'], {
      env: { USER: 'ana' },
    });
    expect(person.exitCode, person.stderr).toBe(0);
  });

  it('a token of no session is refused, never taken for a person', async () => {
    const stranger = await connectMcp([], {
      ...(await insideSession('alpha')),
      THE_LOOP_SESSION_TOKEN: 'not-a-token',
    });
    const answer = await call(stranger, 'say', { name: 'beta', text: 'sneaky' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^forbidden: /);
  });
});

describe('every claude session has the server', () => {
  it('each session was started with --mcp-config naming this bin/the-loop with `mcp`', async () => {
    const configs = (await readAgentEvents(serve.agentHome)).filter(
      (event) => event.event === 'mcp_config',
    );
    expect(configs).toHaveLength(2);
    for (const config of configs) {
      expect(config).toMatchObject({
        servers: { 'the-loop': { command: binPath, args: ['mcp'] } },
      });
    }
  });
});

describe('the-loop mcp without serve', () => {
  it('answers each call with a tool error that says how to start serve', async () => {
    const client = await connectMcp([], {
      ...baseEnv(),
      THE_LOOP_SOCKET: path.join(serve.dir, 'nowhere.sock'),
    });
    const answer = await call(client, 'list_sessions');
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^serve_not_running: .*the-loop serve/);
  });
});
