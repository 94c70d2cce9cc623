import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeHooksVersion } from '../../src/harness/claude-settings.js';
import { readEvents } from '../helpers/read-events.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

/**
 * docs/design.md §8: Claude Code's `idle_prompt` (a minute after every answer; the fake agent sends it
 * 200 ms after) reaches serve and is not posted; a permission notice nobody was asked about is.
 */
describe('notices from the agent', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
  });

  /** serve's `api.request` lines for one hook event that it answered. */
  const hookRequests = (event: string): Array<Record<string, unknown>> =>
    (fixture?.output() ?? '')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter(
        (entry) => entry['event'] === 'api.request' && entry['path'] === `/api/v1/hooks/${event}`,
      );

  const posts = async () =>
    (await readEvents(path.join(fixture?.stateRoot ?? '', 'events.jsonl'))).filter(
      (entry) => entry.event === 'agent.posted',
    );

  it('posts the answer, not the idle notice after it; posts a permission notice', async () => {
    // The session inherits serve's environment, so the knob reaches the fake agent this way.
    fixture = await createServeFixture(() => ({}), { env: { FAKE_AGENT_IDLE_PROMPT_MS: '200' } });
    await fixture.start();
    expect((await fixture.cli(['standing', 'create', 'quiet'])).exitCode).toBe(0);
    // The record names the hooks it runs, so a later the-loop can tell it needs a restart.
    const got = await fixture.cli(['standing', 'get', 'quiet', '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ hooksVersion: claudeHooksVersion() });
    const status = await fixture.cli(['status']);
    expect(status.stdout).not.toContain('older the-loop');
    // The boot prompt's answer, then its idle notice (a prompt sooner would cancel it).
    await eventually(() => hookRequests('Notification').length >= 1, {
      what: 'the idle_prompt after the boot answer to reach serve',
    });
    const said = await fixture.cli(['standing', 'say', 'quiet', 'hello']);
    expect(said.exitCode, said.stderr).toBe(0);

    // hello's idle notice came and went too.
    await eventually(() => hookRequests('Notification').length >= 2, {
      what: 'two idle_prompt notices to reach serve',
    });
    expect(hookRequests('Notification').map((entry) => entry['status'])).toEqual([204, 204]);
    expect((await posts()).map((entry) => entry['kind'])).toEqual(['reply', 'reply']);

    // A permission dialog nobody was asked about is a notice worth posting.
    const notify = await fixture.cli(['standing', 'say', 'quiet', 'FAKE:notify']);
    expect(notify.exitCode, notify.stderr).toBe(0);
    const kinds = await eventually(async () => {
      const seen = (await posts()).map((entry) => entry['kind']);
      return seen.includes('notice') ? seen : undefined;
    });
    expect(kinds.filter((kind) => kind === 'notice')).toHaveLength(1);
  }, 60_000);
});
