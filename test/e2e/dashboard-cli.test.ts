import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

describe('the-loop dashboard with the dashboard off', () => {
  let serve: ServeFixture;

  beforeAll(async () => {
    serve = await createServeFixture(() => ({ dashboard: { listen: 'off' } }));
    await serve.start();
  });

  afterAll(async () => {
    await serve?.dispose();
  });

  it('exits 1 and says which key turns it on', async () => {
    const result = await serve.cli(['dashboard']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/dashboard is off .*set dashboard\.listen/);
  });
});
