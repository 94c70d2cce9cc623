import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeSettings } from '../../../src/harness/claude-settings.js';

/**
 * bin/the-loop-hook (what the settings run) and `the-loop hook` (its fallback) must be one
 * behaviour: the same request to serve, the same stdout for Claude Code, exit 0 whatever happens.
 * Each runs exactly as Claude Code runs the settings' command: `/bin/sh -c` with JSON on stdin.
 */

interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly contentType: string | undefined;
  readonly token: string | undefined;
  readonly body: unknown;
}

const loopCommand = [process.execPath, path.resolve('bin/the-loop')];

function commandFor(event: string, runner: 'shim' | 'cli'): string {
  const settings = claudeSettings(loopCommand, [{ event, waitSeconds: 0.7 }]) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  };
  const shim = settings.hooks[event]?.[0]?.hooks[0]?.command ?? '';
  return runner === 'shim'
    ? shim
    : `'${loopCommand[0]}' '${loopCommand[1]}' hook ${event} --wait 0.7`;
}

let dir: string;
let socketPath: string;
let server: Server;
let recorded: Recorded[];
/** How the recording server answers, per event. */
let answer: (event: string) => { status: number; body?: string } | 'hang';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const text = await readBody(request);
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  // Like serve (parseJsonBody, then objectBody): a body that is no JSON object is a 400.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"no object"}');
    return;
  }
  recorded.push({
    method: request.method ?? '',
    url: request.url ?? '',
    contentType: request.headers['content-type'],
    token: request.headers['x-the-loop-session-token'] as string | undefined,
    body,
  });
  const reply = answer(decodeURIComponent((request.url ?? '').split('/').at(-1) ?? ''));
  if (reply === 'hang') return;
  response.writeHead(reply.status, reply.body ? { 'content-type': 'application/json' } : {});
  response.end(reply.body);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'loop-hook-shim-'));
  socketPath = path.join(dir, 'control.sock');
  recorded = [];
  answer = () => ({ status: 200, body: '{"hookSpecificOutput":{"hookEventName":"X"}}' });
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

async function runHook(
  runner: 'shim' | 'cli',
  event: string,
  input: string,
  env: Record<string, string | undefined> = {},
) {
  const started = Date.now();
  const result = await execa('/bin/sh', ['-c', commandFor(event, runner)], {
    input,
    reject: false,
    extendEnv: false,
    env: {
      PATH: process.env['PATH'],
      THE_LOOP_SOCKET: socketPath,
      THE_LOOP_SESSION_TOKEN: 'tok-123',
      ...env,
    },
    timeout: 10_000,
    stripFinalNewline: false,
  });
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    ms: Date.now() - started,
  };
}

describe.each(['shim', 'cli'] as const)('%s', (runner) => {
  it('posts the hook JSON with the session token and prints the answer', async () => {
    const payload = { hook_event_name: 'Stop', last_assistant_message: 'tab\there "quoted" ✓' };
    const result = await runHook(runner, 'Stop', JSON.stringify(payload));
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"X"}}\n');
    expect(recorded).toEqual([
      {
        method: 'POST',
        url: '/api/v1/hooks/Stop',
        contentType: 'application/json',
        token: 'tok-123',
        body: payload,
      },
    ]);
  });

  it('prints nothing when serve has nothing to say (204)', async () => {
    answer = () => ({ status: 204 });
    const result = await runHook(runner, 'SessionStart', '{"source":"startup"}');
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(recorded).toHaveLength(1);
  });

  it.each([
    ['is not JSON', '{not json'],
    ['is empty', ''],
    ['is an array', '[1]'],
  ])('sends {} when the payload %s: the event alone still counts', async (_title, input) => {
    answer = () => ({ status: 204 });
    const result = await runHook(runner, 'SessionStart', input);
    expect(result.exitCode).toBe(0);
    expect(recorded.map((entry) => entry.body)).toEqual([{}]);
  });

  it('exits 0 at once, printing nothing, when serve is down', async () => {
    const result = await runHook(runner, 'Stop', '{}', {
      THE_LOOP_SOCKET: path.join(dir, 'missing.sock'),
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    expect(result.stderr).toMatch(/^the-loop hook: /);
  });

  it('gives up on a serve that never answers, within a second, exit 0', async () => {
    answer = () => 'hang';
    const result = await runHook(runner, 'UserPromptSubmit', '{"prompt":"x"}');
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    expect(result.ms).toBeLessThan(1500);
    expect(recorded).toHaveLength(1);
  });

  it('outside a session sends nothing and says why', async () => {
    const result = await runHook(runner, 'Stop', '{}', { THE_LOOP_SESSION_TOKEN: undefined });
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    expect(result.stderr).toBe(
      'the-loop hook: not inside a session started by the-loop; nothing sent\n',
    );
    expect(recorded).toEqual([]);
  });
});

describe('the shim without curl', () => {
  it('falls back to `the-loop hook` and posts the same request', async () => {
    // No folder on PATH holds curl (or anything else): the fallback argv is absolute.
    const result = await runHook('shim', 'Stop', '{"a":1}', { PATH: path.join(dir, 'empty') });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"X"}}\n');
    expect(recorded).toEqual([
      {
        method: 'POST',
        url: '/api/v1/hooks/Stop',
        contentType: 'application/json',
        token: 'tok-123',
        body: { a: 1 },
      },
    ]);
  });
});

describe('the token never travels in argv', () => {
  it('the shim hands curl the header in a config on a file descriptor', async () => {
    const { readFile } = await import('node:fs/promises');
    const shim = await readFile(path.resolve('bin/the-loop-hook'), 'utf8');
    const curlLine = shim.slice(shim.indexOf('curl '), shim.indexOf('EOF'));
    expect(curlLine).toContain('--config /dev/fd/3');
    expect(curlLine).not.toMatch(/-H|--header/);
  });
});
