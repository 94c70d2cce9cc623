import { waitForTurns } from '../helpers/run-serve.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from '../fakes/fake-anthropic/scripted-answer.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { TEST_API_KEY } from './scratch-home.js';
import { eventMatching, startRealClaude, userTexts, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

/**
 * One standing session running the real Claude Code under `the-loop serve`: the boot prompt, say
 * (one line, several lines, 100 KB) and the Stop hook's answer, each seen where it ends up — the
 * request at the fake Messages API and the-loop's event log.
 */
describe.skipIf(unavailable !== undefined)('the real Claude Code as a standing session', () => {
  let claude: RealClaude;
  // Prompts sent so far (the boot prompt first). Each say waits for all their turns to end: typed
  // while the last one's turn still runs, a message is (rightly) only `queued`.
  let sent = 0;
  const sayWhenIdle = async (
    args: string[],
    options: { input?: string; env?: Record<string, string> } = {},
  ) => {
    await waitForTurns(claude.serve, 'standing:sup', sent);
    sent += 1;
    return claude.serve.cli(['standing', 'say', 'sup', ...args], options);
  };

  beforeAll(async () => {
    claude = await startRealClaude();
    const created = await claude.serve.cli([
      'standing',
      'create',
      'sup',
      '--prompt',
      'Watch the builds.',
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    sent = 1;
  });

  afterAll(async () => {
    await claude?.dispose();
  });

  it('create: the boot prompt reaches the model, sent with the test key', async () => {
    const boot = await claude.requestWith('You are the standing session `sup`');
    const prompt = userTexts(boot).find((t) => t.includes('You are the standing session'));
    expect(prompt).toMatch(/^\[the-loop · [0-9a-f]{4}\]\n\nYou are the standing session `sup`/);
    expect(prompt).toMatch(/Watch the builds\.$/);
    expect(boot.headers['x-api-key']).toBe(TEST_API_KEY);
    const got = JSON.parse(
      (await claude.serve.cli(['standing', 'get', 'sup', '--json'])).stdout,
    ) as {
      status: string;
    };
    expect(got.status).toBe('running');
  });

  it('say: the CLI says delivered and the prompt reaches the model as sent', async () => {
    const said = await sayWhenIdle(['hello from the real tier'], { env: { USER: 'ana' } });
    expect(said.exitCode, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/^delivered to sup/);
    const request = await claude.requestWith('hello from the real tier');
    expect(userTexts(request).at(-1)).toMatch(/^\[cli · ana[^\]]*\]\n\nhello from the real tier$/);
  });

  it('say: a multi-line message arrives with its lines and blank lines', async () => {
    const message = 'first line\nsecond line\n\nafter a blank line\n  indented';
    const said = await sayWhenIdle(['-'], { input: message });
    expect(said.exitCode, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/^delivered to sup/);
    const request = await claude.requestWith('after a blank line');
    expect(userTexts(request).at(-1)).toMatch(new RegExp(`\\n\\n${escape(message)}$`));
  });

  it('say: a 100 KB message arrives whole', async () => {
    const message = `${'The build log says all is well. '.repeat(3_200)}END-OF-100KB`;
    expect(Buffer.byteLength(message)).toBeGreaterThan(100_000);
    const said = await sayWhenIdle(['-'], { input: message });
    expect(said.exitCode, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/^delivered to sup/);
    const request = await claude.requestWith('END-OF-100KB');
    const prompt = userTexts(request).at(-1) ?? '';
    expect(prompt.endsWith(`\n\n${message}`)).toBe(true);
  });

  it("the Stop hook's answer is posted (agent.posted, kind reply, the answer's size)", async () => {
    const answer = 'The build is green: 42 tests passed, none failed.';
    claude.fake.script(text(answer));
    const said = await sayWhenIdle(['how is the build?']);
    expect(said.exitCode, said.stderr).toBe(0);
    await claude.requestWith('how is the build?');
    const posted = await eventMatching(
      claude,
      (event) =>
        event.event === 'agent.posted' &&
        event.ref === 'standing:sup' &&
        event.kind === 'reply' &&
        event.bytes === Buffer.byteLength(answer),
      'agent.posted for the scripted answer',
    );
    expect(posted).toMatchObject({ postedTo: [] });
  });
});

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
