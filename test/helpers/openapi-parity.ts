import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadOpenApiOperations } from './load-openapi-operations.js';
import type { Route } from '../../src/api/route.js';

export const openApiPath = fileURLToPath(new URL('../../schemas/openapi.yaml', import.meta.url));

/**
 * Fails unless the served route table and schemas/openapi.yaml list exactly the same operations:
 * method, path template, operationId and auth kind (a session-token route must say so in both).
 * Call it with the real route table: `await expectRoutesMatchOpenApi(routes)`.
 */
export async function expectRoutesMatchOpenApi(
  routes: readonly Route[],
  documentPath: string = openApiPath,
): Promise<void> {
  const documented = await loadOpenApiOperations(documentPath);
  expect(
    duplicates(routes.map((route) => route.operationId)),
    'duplicate operationIds in routes',
  ).toEqual([]);
  expect(duplicates(routes.map(endpoint)), 'duplicate method + path in routes').toEqual([]);
  expect(
    duplicates(documented.map((operation) => operation.operationId)),
    'duplicate operationIds in the document',
  ).toEqual([]);
  expect(
    routes.map(describe).sort(),
    `served routes (left) must equal the operations of ${documentPath} (right)`,
  ).toEqual(documented.map(describe).sort());
}

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly auth: string;
}

function endpoint(operation: Operation): string {
  return `${operation.method} ${operation.path}`;
}

function describe(operation: Operation): string {
  return `${endpoint(operation)} ${operation.operationId} (${operation.auth})`;
}

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}
