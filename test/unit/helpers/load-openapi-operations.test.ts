import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiOperations } from '../../helpers/load-openapi-operations.js';
import { openApiPath } from '../../helpers/openapi-parity.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loop-openapi-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function documentFile(text: string): Promise<string> {
  const path = join(dir, `doc-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(path, text);
  return path;
}

const schemes = `
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    agent: { type: apiKey, in: header, name: X-The-Loop-Session-Token }
    other: { type: apiKey, in: header, name: X-Something-Else }
`;

describe('loadOpenApiOperations', () => {
  it('lists every operation with its method, path, operationId and auth kind', async () => {
    const path = await documentFile(`
openapi: 3.1.0
security: [{ bearer: [] }]
paths:
  /a:
    parameters: []
    get: { operationId: getA }
    delete: { operationId: deleteA, security: [{ other: [] }] }
  /a/{id}/post:
    post: { operationId: postA, security: [{ bearer: [], agent: [] }] }
  /b:
    put: { operationId: putB, security: [{ bearer: [] }, { agent: [] }] }
${schemes}`);
    expect(await loadOpenApiOperations(path)).toEqual([
      { method: 'GET', path: '/a', operationId: 'getA', auth: 'operator' },
      { method: 'DELETE', path: '/a', operationId: 'deleteA', auth: 'operator' },
      { method: 'POST', path: '/a/{id}/post', operationId: 'postA', auth: 'session' },
      { method: 'PUT', path: '/b', operationId: 'putB', auth: 'session' },
    ]);
  });

  it('inherits the document-wide security', async () => {
    const path = await documentFile(`
openapi: 3.1.0
security: [{ agent: [] }]
paths:
  /a: { get: { operationId: getA } }
${schemes}`);
    expect(await loadOpenApiOperations(path)).toEqual([
      { method: 'GET', path: '/a', operationId: 'getA', auth: 'session' },
    ]);
  });

  const malformed: [string, string, RegExp][] = [
    ['no paths', 'openapi: 3.1.0\n', /no `paths` object/],
    ['a scalar document', 'just text\n', /no `paths` object/],
    [
      'a missing operationId',
      'paths:\n  /a:\n    get: { summary: x }\n',
      /GET \/a has no operationId/,
    ],
    ['a non-object operation', 'paths:\n  /a:\n    post: 3\n', /POST \/a is not an object/],
    ['a non-object path item', 'paths:\n  /a: [1]\n', /path \/a is not an object/],
  ];
  it.each(malformed)(
    'refuses a document with %s, naming the file',
    async (_label, text, message) => {
      const path = await documentFile(text);
      await expect(loadOpenApiOperations(path)).rejects.toMatchObject({
        code: 'internal',
        message: expect.stringMatching(message),
      });
      await expect(loadOpenApiOperations(path)).rejects.toThrow(path);
    },
  );

  it('reads the 25 operations of schemas/openapi.yaml, two of them session-token routes', async () => {
    const operations = await loadOpenApiOperations(openApiPath);
    expect(operations).toHaveLength(25);
    expect(
      operations.filter((operation) => operation.auth === 'session').map((o) => o.operationId),
    ).toEqual(['postAsSession', 'receiveHook']);
  });
});
