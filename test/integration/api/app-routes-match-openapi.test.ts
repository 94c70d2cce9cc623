import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { expectRoutesMatchOpenApi } from '../../helpers/openapi-parity.js';

describe('the served control plane', () => {
  it('serves exactly the routes schemas/openapi.yaml describes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-parity-'));
    await writeFile(
      path.join(dir, 'config.yaml'),
      'state: { root: state }\nslack: { enabled: false }\n',
    );
    const config = await loadConfig(path.join(dir, 'config.yaml'));
    const app = await createApp({
      config,
      env: {},
      logger: silentLogger(),
      loopCommand: ['the-loop'],
      version: 'test',
    });
    await expectRoutesMatchOpenApi(app.routes);
  });
});
