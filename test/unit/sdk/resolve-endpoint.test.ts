import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../../src/sdk/resolve-endpoint.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';

let dir: TempDir;

beforeAll(async () => {
  dir = await makeTempDir('loop-endpoint-');
  await writeFile(path.join(dir.path, 'a.yaml'), 'state: { root: state-a }\n');
  await mkdir(path.join(dir.path, '.the-loop'));
  await writeFile(path.join(dir.path, '.the-loop', 'config.yaml'), 'state: { root: ../state-d }\n');
});

afterAll(async () => {
  await dir.remove();
});

const at = (...parts: string[]) => path.join(dir.path, ...parts);

describe('resolveEndpoint: how connect finds serve', () => {
  it.each([
    {
      name: 'socket wins over everything',
      options: { socket: 's.sock', url: 'http://x', config: 'a.yaml' },
      env: { THE_LOOP_SOCKET: '/in/session.sock' },
      expected: () => ({ socketPath: at('s.sock') }),
    },
    {
      name: 'url with token',
      options: { url: 'http://127.0.0.1:8790', token: 't' },
      env: {},
      expected: () => ({ url: 'http://127.0.0.1:8790', token: 't' }),
    },
    {
      name: 'url takes $THE_LOOP_API_TOKEN',
      options: { url: 'http://127.0.0.1:8790' },
      env: { THE_LOOP_API_TOKEN: 'from-env' },
      expected: () => ({ url: 'http://127.0.0.1:8790', token: 'from-env' }),
    },
    {
      name: 'config: the socket in its state root',
      options: { config: 'a.yaml' },
      env: { THE_LOOP_SOCKET: '/in/session.sock' },
      expected: () => ({ socketPath: at('state-a', 'control.sock') }),
    },
    {
      name: '$THE_LOOP_CONFIG before the session socket',
      options: {},
      env: { THE_LOOP_CONFIG: 'a.yaml', THE_LOOP_SOCKET: '/in/session.sock' },
      expected: () => ({ socketPath: at('state-a', 'control.sock') }),
    },
    {
      name: 'inside a session: $THE_LOOP_SOCKET',
      options: {},
      env: { THE_LOOP_SOCKET: '/in/session.sock' },
      expected: () => ({ socketPath: '/in/session.sock' }),
    },
    {
      name: 'otherwise .the-loop/config.yaml',
      options: {},
      env: {},
      expected: () => ({ socketPath: at('state-d', 'control.sock') }),
    },
  ])('$name', async ({ options, env, expected }) => {
    expect(await resolveEndpoint({ ...options, env, cwd: dir.path })).toEqual(expected());
  });

  it('refuses a url without a token, naming both ways to give one', async () => {
    await expect(resolveEndpoint({ url: 'http://127.0.0.1:1', env: {} })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('THE_LOOP_API_TOKEN') as unknown,
    });
  });

  it('a config that does not load is a config_invalid LoopError', async () => {
    await expect(
      resolveEndpoint({ config: 'missing.yaml', env: {}, cwd: dir.path }),
    ).rejects.toMatchObject({ code: 'config_invalid' });
  });
});
