import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createControlServer, type ControlServer } from '../../../src/api/create-control-server.js';
import type { ApiRequest, HttpMethod, Route } from '../../../src/api/route.js';
import { main } from '../../../src/cli/main.js';
import { LoopError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import type { StandingView } from '../../../src/standing/standing-types.js';
import { statePaths } from '../../../src/state/state-paths.js';
import { fakeIo, type FakeIoOptions } from './fake-io.js';
import { standingView } from './standing-view-fixture.js';

interface Seen {
  readonly operation: string;
  readonly params: Record<string, string>;
  readonly body: unknown;
  readonly sessionToken?: string;
}

const sessions: StandingView[] = [
  standingView({ name: 'demo' }),
  standingView({ name: 'manual', autoStart: false, status: 'stopped', tmux: 'absent' }),
  standingView({ name: 'crashed', autoStart: true, status: 'stopped', tmux: 'dead' }),
];

let dir: string;
let config: string;
let server: ControlServer;
let seen: Seen[];

/** A stub route that records each request and answers with `answer` (or throws from it). */
function stub(
  method: HttpMethod,
  routePath: string,
  operation: string,
  answer: (request: ApiRequest) => unknown,
  auth: Route['auth'] = 'operator',
): Route {
  return {
    method,
    path: routePath,
    operationId: operation,
    auth,
    handler: async (request) => {
      seen.push({
        operation,
        params: request.params,
        body: request.body,
        ...(request.sessionToken === undefined ? {} : { sessionToken: request.sessionToken }),
      });
      const body = await answer(request);
      if (body === undefined) return { status: 204, body };
      return { status: method === 'POST' && operation === 'create' ? 201 : 200, body };
    },
  };
}

const unknown = (name: string | undefined): LoopError =>
  new LoopError(
    'session_unknown',
    `no standing session \`${name ?? ''}\`; see \`the-loop standing list\``,
  );

const routes: Route[] = [
  stub('GET', '/api/v1/standing-sessions', 'list', () => ({ sessions })),
  stub('GET', '/api/v1/standing-sessions/{name}', 'get', ({ params }) => {
    const found = sessions.find((session) => session.name === params['name']);
    if (!found) throw unknown(params['name']);
    return found;
  }),
  stub('POST', '/api/v1/standing-sessions', 'create', ({ body }) =>
    standingView({
      name: 'extra',
      source: 'created',
      status: 'stopped',
      tmux: 'absent',
      ...(body as object),
    }),
  ),
  stub('POST', '/api/v1/standing-sessions/{name}/start', 'start', ({ params }) => {
    if (params['name'] === 'crashed')
      throw new LoopError('spawn_failed', 'bash is not on PATH: install it');
    return { outcome: 'started', session: standingView({ name: params['name'] ?? '' }) };
  }),
  stub('POST', '/api/v1/standing-sessions/{name}/stop', 'stop', ({ params }) => ({
    outcome: 'stopped',
    session: standingView({ name: params['name'] ?? '' }),
  })),
  stub('POST', '/api/v1/standing-sessions/{name}/say', 'say', ({ params }) => {
    if (params['name'] !== 'demo') throw unknown(params['name']);
    return { outcome: 'delivered', deliveryId: 'd-1' };
  }),
  stub('GET', '/api/v1/status', 'status', () => ({
    ok: false,
    instance: { name: 'laptop-b', scopeMode: 'addressed', warnings: [] },
    services: [{ name: 'control', state: 'ok', detail: 'socket' }],
    sessions,
    problems: ['auto-start session `crashed` is not running'],
  })),
  stub(
    'POST',
    '/api/v1/post',
    'post',
    () => ({ targets: [{ surface: 'slack', location: 'C1/1.2' }] }),
    'session',
  ),
  stub(
    'POST',
    '/api/v1/hooks/{event}',
    'hook',
    ({ params }) =>
      // `Hang` never answers: the hook must give up on its own. `Quiet` has nothing to say (204).
      params['event'] === 'Hang'
        ? new Promise(() => undefined)
        : params['event'] === 'Quiet'
          ? undefined
          : { continue: true },
    'session',
  ),
];

beforeEach(async () => {
  seen = [];
  dir = await mkdtemp(path.join(tmpdir(), 'loop-cli-'));
  config = path.join(dir, 'config.yaml');
  await writeFile(config, `state: { root: ${JSON.stringify(dir)} }\n`);
  server = createControlServer({
    routes,
    logger: silentLogger(),
    socketPath: statePaths(dir).controlSocket,
    stopGraceMs: 100,
  });
  await server.start();
});

afterEach(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[], options: FakeIoOptions = {}) {
  const fake = fakeIo({ cwd: dir, ...options });
  const started = Date.now();
  const code = await main([...argv, '--config', config], fake.io);
  return { code, ms: Date.now() - started, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('main against a control server', () => {
  it('standing list --json prints the sessions array', async () => {
    const result = await cli(['standing', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(sessions);
  });

  it('standing list prints the table', async () => {
    const result = await cli(['standing', 'list']);
    expect(result.stdout.split('\n')[0]).toBe(
      'NAME     SOURCE    STATUS   STATE  TMUX    HARNESS  AUTO  CWD',
    );
    expect(result.stdout).toContain(
      'crashed  declared  stopped  idle   dead    shell    yes   /work/repo',
    );
  });

  it('standing say reads the text from stdin and names the actor', async () => {
    const result = await cli(['standing', 'say', 'demo'], {
      stdin: 'line one\nline two\n',
      env: { USER: 'ana' },
    });
    expect(result.code).toBe(0);
    expect(seen).toEqual([
      {
        operation: 'say',
        params: { name: 'demo' },
        body: { text: 'line one\nline two\n', actor: 'ana' },
      },
    ]);
    expect(result.stdout).toBe('delivered to demo (delivery d-1)\n');
  });

  it("standing say - reads stdin; the actor is 'operator' without USER", async () => {
    const result = await cli(['standing', 'say', 'demo', '-'], { stdin: 'hi' });
    expect(result.code).toBe(0);
    expect(seen[0]?.body).toEqual({ text: 'hi', actor: 'operator' });
  });

  it('prints the server error {error, code} and exits 1', async () => {
    const result = await cli(['standing', 'say', 'ghost', 'hello']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: no standing session `ghost`; see `the-loop standing list`\n',
    );
    expect(result.stdout).toBe('');
  });

  it('standing get shows the session; an unknown one exits 1', async () => {
    expect((await cli(['standing', 'get', 'demo'])).stdout).toMatch(/^ref +standing:demo$/m);
    expect((await cli(['standing', 'get', 'nope'])).code).toBe(1);
  });

  it('standing create sends an absolute cwd and the prompt file as text', async () => {
    await writeFile(path.join(dir, 'brief.md'), 'watch the build\n');
    const result = await cli([
      'standing',
      'create',
      'extra',
      '--cwd',
      'sub/dir',
      '--prompt-file',
      'brief.md',
      '--harness',
      'shell',
      '--slack-channel',
      'C9',
      '--no-start',
      '--no-auto-start',
    ]);
    expect(result.code).toBe(0);
    expect(seen[0]?.body).toEqual({
      name: 'extra',
      cwd: path.join(dir, 'sub', 'dir'),
      prompt: 'watch the build\n',
      harness: 'shell',
      slackChannel: 'C9',
      start: false,
      autoStart: false,
    });
    expect(result.stdout).toContain('created extra: not started');
  });

  it('standing start with no NAME starts the auto-start sessions and reports each', async () => {
    const result = await cli(['standing', 'start']);
    expect(
      seen.filter((entry) => entry.operation === 'start').map((entry) => entry.params['name']),
    ).toEqual(['demo', 'crashed']);
    expect(result.stdout).toBe('demo: started\n');
    expect(result.stderr).toBe('crashed: error: bash is not on PATH: install it\n');
    expect(result.code).toBe(1);
  });

  it('standing stop with no NAME stops what is running or still has a tmux session', async () => {
    const result = await cli(['standing', 'stop', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { name: 'demo', outcome: 'stopped' },
      { name: 'crashed', outcome: 'stopped' },
    ]);
  });

  it('status exits 1 when serve says it is not ok', async () => {
    const result = await cli(['status']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe('instance: laptop-b · scope addressed');
    expect(result.stdout).toContain('not ok (1 problem)');
  });

  it('post sends the session token from the environment', async () => {
    const env = {
      THE_LOOP_SESSION_TOKEN: 'sekrit',
      THE_LOOP_SOCKET: statePaths(dir).controlSocket,
    };
    const result = await cli(['post', 'all done'], { env });
    expect(result.code).toBe(0);
    expect(seen).toEqual([
      { operation: 'post', params: {}, body: { text: 'all done' }, sessionToken: 'sekrit' },
    ]);
    expect(result.stdout).toBe('posted to slack C1/1.2\n');
  });

  it('post --file reads each file itself and sends its bytes, never its path', async () => {
    const env = {
      THE_LOOP_SESSION_TOKEN: 'sekrit',
      THE_LOOP_SOCKET: statePaths(dir).controlSocket,
    };
    await writeFile(path.join(dir, 'a.log'), 'log');
    await writeFile(path.join(dir, 'b.txt'), 'txt');
    const result = await cli(['post', 'see', '--file', 'a.log', '--file', 'b.txt'], {
      env,
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    const alone = await cli(['post', '--file', 'a.log'], { env, cwd: dir });
    expect(alone.code, alone.stderr).toBe(0);
    expect(seen.map((request) => request.body)).toEqual([
      {
        text: 'see',
        files: [
          { name: 'a.log', contentBase64: Buffer.from('log').toString('base64') },
          { name: 'b.txt', contentBase64: Buffer.from('txt').toString('base64') },
        ],
      },
      {
        text: '',
        files: [{ name: 'a.log', contentBase64: Buffer.from('log').toString('base64') }],
      },
    ]);
  });

  it("hook forwards the JSON with the token and prints serve's answer for Claude Code", async () => {
    const env = {
      THE_LOOP_SESSION_TOKEN: 'sekrit',
      THE_LOOP_SOCKET: statePaths(dir).controlSocket,
    };
    const result = await cli(['hook', 'Stop'], { env, stdin: '{"last_assistant_message":"done"}' });
    expect(result).toMatchObject({ code: 0, stdout: '{"continue":true}\n', stderr: '' });
    expect(seen).toEqual([
      {
        operation: 'hook',
        params: { event: 'Stop' },
        body: { last_assistant_message: 'done' },
        sessionToken: 'sekrit',
      },
    ]);
  });

  it('hook prints nothing when serve has nothing to say (204)', async () => {
    const env = { THE_LOOP_SESSION_TOKEN: 't', THE_LOOP_SOCKET: statePaths(dir).controlSocket };
    const result = await cli(['hook', 'Quiet'], { env, stdin: '{}' });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(seen.map((entry) => entry.params)).toEqual([{ event: 'Quiet' }]);
  });

  it('hook sends {} for invalid JSON', async () => {
    const env = { THE_LOOP_SESSION_TOKEN: 't', THE_LOOP_SOCKET: statePaths(dir).controlSocket };
    const result = await cli(['hook', 'SessionStart'], { env, stdin: 'not json at all' });
    expect(result.code).toBe(0);
    expect(seen[0]?.body).toEqual({});
  });

  it('hook gives up on a serve that never answers, within a second, exit 0', async () => {
    const env = { THE_LOOP_SESSION_TOKEN: 't', THE_LOOP_SOCKET: statePaths(dir).controlSocket };
    const result = await cli(['hook', 'Hang'], { env, stdin: 'endless' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.ms).toBeLessThan(1000);
    expect(seen.map((entry) => entry.operation)).toEqual(['hook']);
  });
});
