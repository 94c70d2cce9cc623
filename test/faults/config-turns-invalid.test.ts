import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { parse, stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import {
  binPath,
  createServeFixture,
  waitForTurns,
  type ServeFixture,
} from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';

describe('a config that becomes invalid while serve runs', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
  });

  it('keeps serving on the config it started with; config check and a restart refuse with exit 2', async () => {
    fixture = await createServeFixture(() => ({
      instance: { name: 'before', scope: { mode: 'open', workItems: [] } },
    }));
    const serve = fixture;
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'steady']);
    expect(created.exitCode, created.stderr).toBe(0);
    await waitForTurns(serve, 'standing:steady', 1);

    const original = parse(await readFile(serve.configPath, 'utf8')) as Record<string, unknown>;
    const broken = {
      ...original,
      instance: { name: 'after', scope: { mode: 'open', workItems: [] } },
      standing: { ...(original['standing'] as object), autoStart: 'yes' },
      tmux: { ...(original['tmux'] as object), sockett: 'typo' },
    };
    await writeFile(serve.configPath, stringify(broken));

    // serve does not notice or half-apply the edit: it answers as the instance it started as.
    const api = createApiClient({ socketPath: path.join(serve.stateRoot, 'control.sock') });
    const instance = await api.request<{ name: string }>('GET', '/api/v1/instance');
    expect(instance).toMatchObject({ status: 200, body: { name: 'before' } });
    const said = await api.request<{ outcome: string }>(
      'POST',
      '/api/v1/standing-sessions/steady/say',
      { text: 'still listening?', actor: 'ana' },
    );
    expect(said).toMatchObject({ status: 200, body: { outcome: 'delivered' } });
    expect(await agentRecords.bodies(serve)).toEqual(['still listening?']);

    const check = await serve.cli(['config', 'check']);
    expect(check.exitCode).toBe(2);
    expect(check.stderr).toMatch(/standing\.autoStart/);
    expect(check.stderr).toMatch(/tmux\.sockett/);

    expect(await serve.kill('SIGTERM')).toBe(0);
    const restart = await execa(
      process.execPath,
      [binPath, 'serve', '--config', serve.configPath],
      {
        reject: false,
        timeout: 20_000,
        env: { SLACK_BOT_TOKEN: '', GITHUB_TOKEN: '' },
      },
    );
    expect(restart.exitCode, restart.stderr).toBe(2);
    expect(restart.stderr).toMatch(/standing\.autoStart/);
    expect(restart.stderr).toMatch(/nothing was applied/);
    // The refused restart touched nothing: the session it left behind still runs.
    const sessions = await execa('tmux', [
      '-L',
      serve.socket,
      'list-sessions',
      '-F',
      '#{session_name}',
    ]);
    expect(sessions.stdout.split('\n')).toEqual(['loop-standing-steady']);
  }, 40_000);
});
