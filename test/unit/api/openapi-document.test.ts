import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../helpers/openapi-parity.js';

type Json = Record<string, unknown>;

let document: Json;
let ajv: Ajv2020;

beforeAll(async () => {
  document = parse(await readFile(openApiPath, 'utf8')) as Json;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document itself is not a schema, hence
  // strict: false (its `openapi`, `paths`… keys are not keywords).
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'openapi' });
});

function validator(name: string): (value: unknown) => boolean {
  const validate = ajv.getSchema(`openapi#/components/schemas/${name}`);
  if (validate === undefined) throw new Error(`no schema ${name}`);
  return (value) => validate(value) === true;
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

function resolvePointer(ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
}

const session = {
  name: 'sup',
  ref: 'standing:sup',
  source: 'declared',
  description: 'watches the work in flight',
  harness: 'claude',
  cwd: '/home/ana/repo',
  autoStart: true,
  status: 'running',
  agentState: 'idle',
  tmux: 'live',
  conversationId: '0b1c2d3e-0000-4000-8000-000000000000',
  createdAt: '2025-01-01T00:00:00.000Z',
  startedAt: '2025-01-01T00:00:01.000Z',
  slack: { channel: 'C0123ABC', threadTs: '1700000000.000100' },
};

describe('schemas/openapi.yaml', () => {
  it('is OpenAPI 3.1 and every $ref points at something', () => {
    expect(document.openapi).toBe('3.1.0');
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((ref) => resolvePointer(ref) === undefined)).toEqual([]);
  });

  it('every component schema compiles as JSON Schema 2020-12', () => {
    const names = Object.keys((document.components as Json).schemas as Json);
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(() => validator(name), name).not.toThrow();
  });

  it('declares the bearer and session-token security schemes', () => {
    expect((document.components as Json).securitySchemes).toEqual({
      apiToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      sessionToken: expect.objectContaining({
        type: 'apiKey',
        in: 'header',
        name: 'X-The-Loop-Session-Token',
      }),
    });
    expect(document.security).toEqual([{ apiToken: [] }]);
  });

  const samples: [string, unknown, boolean][] = [
    ['StandingSession', session, true],
    ['StandingSession', { ...session, source: 'config' }, false],
    ['StandingSession', { ...session, tmux: 'zombie' }, false],
    ['StandingSession', { ...session, name: 'Bad_Name' }, false],
    [
      'Status',
      { ok: true, instance: { name: '', scopeMode: 'open' }, services: [], sessions: [session] },
      true,
    ],
    [
      'Status',
      {
        ok: true,
        instance: { name: '', scopeMode: 'open' },
        services: [{ name: 'slack', state: 'off' }],
        sessions: [],
      },
      false,
    ],
    ['SayResult', { outcome: 'unconfirmed', deliveryId: 'd-1' }, true],
    ['SayResult', { outcome: 'lost', deliveryId: 'd-1' }, false],
    ['SayRequest', { text: 'hello', actor: 'ana' }, true],
    ['SayRequest', { text: '' }, false],
    [
      'CreateStandingSession',
      { name: 'sup', harness: 'shell', start: false, autoStart: false },
      true,
    ],
    ['CreateStandingSession', { name: 'sup', args: ['--dangerous'] }, false],
    ['CreateStandingSession', { harness: 'shell' }, false],
    ['PostRequest', { text: 'done' }, true],
    ['HookPayload', { hook_event_name: 'Stop', session_id: 'x' }, true],
    ['HookPayload', [1, 2], false],
    ['Error', { error: 'sup exists: pick another name', code: 'name_taken' }, true],
    ['Error', { error: 'no code' }, false],
  ];
  it.each(samples)('%s accepts %j: %s', (name, value, valid) => {
    expect(validator(name)(value)).toBe(valid);
  });
});
