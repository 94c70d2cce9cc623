import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listenAddressPattern, parseListenAddress } from '../../../src/config/listen-address.js';

const schema = JSON.parse(
  readFileSync(new URL('../../../schemas/config.schema.json', import.meta.url), 'utf8'),
) as { properties: { api: { properties: { listen: { pattern: string } } } } };

describe('parseListenAddress', () => {
  it('reads the pattern the schema has for api.listen', () => {
    expect(schema.properties.api.properties.listen.pattern).toBe(`^$|${listenAddressPattern}`);
  });

  it.each([
    ['127.0.0.1:8790', { host: '127.0.0.1', port: 8790 }],
    ['localhost:1', { host: 'localhost', port: 1 }],
    ['[::1]:8790', { host: '[::1]', port: 8790 }],
  ])('reads %s', (listen, parts) => {
    expect(parseListenAddress(listen)).toEqual(parts);
  });

  it.each(['localhost', ':8790', 'a b:80', 'host:123456'])(
    'refuses %s with the remedy',
    (listen) => {
      expect(() => parseListenAddress(listen)).toThrow(/api\.listen must be host:port/);
    },
  );
});
