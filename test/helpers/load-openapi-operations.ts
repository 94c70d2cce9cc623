import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { LoopError } from '../../src/errors.js';
import { sessionTokenHeader, type RouteAuth } from '../../src/api/route.js';

export interface OpenApiOperation {
  /** Upper case, as written in the route table (`GET`, `POST`, `DELETE`). */
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  /** `session` when the operation's security asks for the X-The-Loop-Session-Token scheme. */
  readonly auth: RouteAuth;
}

const operationKeys = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of an OpenAPI 3.x document, in document order; for the route-parity test. */
export async function loadOpenApiOperations(path: string): Promise<OpenApiOperation[]> {
  const document: unknown = parse(await readFile(path, 'utf8'));
  const refuse = (problem: string): LoopError =>
    new LoopError('internal', `${path}: ${problem}: fix the OpenAPI document`);
  if (!isRecord(document) || !isRecord(document.paths)) throw refuse('there is no `paths` object');
  const sessionSchemes = sessionSchemeNames(document);
  const defaultSecurity = document.security;

  const operations: OpenApiOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) throw refuse(`path ${template} is not an object`);
    for (const key of operationKeys) {
      const operation = item[key];
      if (operation === undefined) continue;
      const where = `${key.toUpperCase()} ${template}`;
      if (!isRecord(operation)) throw refuse(`${where} is not an object`);
      if (typeof operation.operationId !== 'string' || operation.operationId === '') {
        throw refuse(`${where} has no operationId`);
      }
      const security = operation.security ?? defaultSecurity;
      operations.push({
        method: key.toUpperCase(),
        path: template,
        operationId: operation.operationId,
        auth: usesAnyScheme(security, sessionSchemes) ? 'session' : 'operator',
      });
    }
  }
  return operations;
}

function sessionSchemeNames(document: Record<string, unknown>): Set<string> {
  const schemes = isRecord(document.components) ? document.components.securitySchemes : undefined;
  const names = new Set<string>();
  if (!isRecord(schemes)) return names;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (
      isRecord(scheme) &&
      scheme.type === 'apiKey' &&
      scheme.in === 'header' &&
      typeof scheme.name === 'string' &&
      scheme.name.toLowerCase() === sessionTokenHeader
    ) {
      names.add(name);
    }
  }
  return names;
}

function usesAnyScheme(security: unknown, names: ReadonlySet<string>): boolean {
  if (!Array.isArray(security)) return false;
  return security.some(
    (requirement) =>
      isRecord(requirement) && Object.keys(requirement).some((key) => names.has(key)),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
