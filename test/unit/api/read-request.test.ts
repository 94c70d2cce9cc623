import { describe, expect, it } from 'vitest';
import { checkBearer, isJsonContentType, parseJsonBody } from '../../../src/api/read-request.js';
import { LoopError } from '../../../src/errors.js';

describe('checkBearer', () => {
  const token = 's3cret-token';
  const cases: [string | undefined, string, boolean][] = [
    ['Bearer s3cret-token', token, true],
    ['bearer s3cret-token', token, true],
    ['Bearer  s3cret-token ', token, true],
    [undefined, token, false],
    ['', token, false],
    ['Bearer', token, false],
    ['Bearer ', token, false],
    ['s3cret-token', token, false],
    ['Basic s3cret-token', token, false],
    ['Bearer s3cret-toke', token, false],
    ['Bearer s3cret-token2', token, false],
    ['Bearer S3CRET-TOKEN', token, false],
    ['Bearer s3cret-token extra', token, false],
    // An empty configured token must never let anything in.
    ['Bearer ', '', false],
    ['Bearer x', '', false],
  ];
  it.each(cases)('%j against %j → %s', (header, expected, result) => {
    expect(checkBearer(header, expected)).toBe(result);
  });
});

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('isJsonContentType', () => {
  const cases: [string | undefined, boolean][] = [
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset=UTF-8', true],
    [' application/json ', true],
    ['application/vnd.the-loop+json', true],
    [undefined, false],
    ['', false],
    ['text/plain', false],
    ['text/json', false],
    ['application/x-www-form-urlencoded', false],
    ['application/jsonp', false],
    ['multipart/form-data; boundary=x', false],
  ];
  it.each(cases)('%j → %s', (header, expected) => {
    expect(isJsonContentType(header)).toBe(expected);
  });
});

describe('parseJsonBody', () => {
  const parsed: [string, string | undefined, unknown][] = [
    ['', undefined, undefined],
    ['', 'text/plain', undefined],
    ['{"text":"hi"}', 'application/json', { text: 'hi' }],
    ['[1,2]', 'application/json; charset=utf-8', [1, 2]],
    ['"x"', 'application/json', 'x'],
    ['null', 'application/json', null],
    ['{"t":"café ✓"}', 'application/json', { t: 'café ✓' }],
  ];
  it.each(parsed)('%j as %j → %j', (text, contentType, expected) => {
    expect(parseJsonBody(bytes(text), contentType)).toEqual(expected);
  });

  const refused: [Uint8Array, string | undefined, RegExp][] = [
    [bytes('{"text":"hi"}'), undefined, /Content-Type: application\/json/],
    [bytes('hello'), 'text/plain', /got `text\/plain`/],
    [bytes('{bad'), 'application/json', /not valid JSON/],
    [bytes('{"a":1}{'), 'application/json', /not valid JSON/],
    [new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json', /not UTF-8/],
  ];
  it.each(refused)('refuses %s as %j', (body, contentType, message) => {
    let thrown: unknown;
    try {
      parseJsonBody(body, contentType);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LoopError);
    expect(thrown).toMatchObject({ code: 'bad_request', status: 400 });
    expect((thrown as LoopError).message).toMatch(message);
  });

  it('does not keep the prototype of a hostile body', () => {
    const body = parseJsonBody(bytes('{"__proto__":{"polluted":true}}'), 'application/json');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(body as object)).toEqual(['__proto__']);
  });
});
