import { describe, expect, it } from 'vitest';
import {
  allowedHostSet,
  guardRequest,
  type GuardInput,
} from '../../../src/dashboard/guard-request.js';

const hosts = allowedHostSet({ host: '127.0.0.1', port: 8791 }, ['loop.example']);
const base: GuardInput = {
  method: 'GET',
  path: '/',
  host: '127.0.0.1:8791',
  origin: undefined,
  cookie: 'valid',
  bearer: 'none',
  allowedHosts: hosts,
};

describe('guardRequest', () => {
  it.each<[string, Partial<GuardInput>, string]>([
    ['a page with the cookie', {}, 'pass'],
    ['localhost:<port> as Host', { host: 'localhost:8791' }, 'pass'],
    ['a Host from dashboard.allowedHosts', { host: 'LOOP.example' }, 'pass'],
    ['a foreign Host (DNS rebinding)', { host: 'evil.example:8791' }, 'misdirected'],
    ['the right name on another port', { host: '127.0.0.1:80' }, 'misdirected'],
    ['no Host', { host: undefined }, 'misdirected'],
    ['a page without a cookie', { cookie: 'none' }, 'login'],
    ['a page with a forgotten cookie', { cookie: 'invalid' }, 'login'],
    ['an API call without a cookie', { cookie: 'none', path: '/api/v1/status' }, 'unauthorized'],
    ['a /ui call without a cookie', { cookie: 'none', path: '/ui/overview' }, 'unauthorized'],
    ['the login page without a cookie', { cookie: 'none', path: '/login' }, 'pass'],
    ['an asset without a cookie', { cookie: 'none', path: '/assets/dashboard.js' }, 'pass'],
    [
      'a same-origin POST with the cookie',
      { method: 'POST', path: '/api/v1/x', origin: 'http://127.0.0.1:8791' },
      'pass',
    ],
    ['a POST with the cookie and no Origin', { method: 'POST', path: '/api/v1/x' }, 'cross-origin'],
    [
      'a POST with the cookie and Origin null',
      { method: 'POST', path: '/api/v1/x', origin: 'null' },
      'cross-origin',
    ],
    [
      'a cross-origin POST with the cookie (CSRF)',
      { method: 'POST', path: '/api/v1/x', origin: 'http://evil.example' },
      'cross-origin',
    ],
    [
      'a DELETE from another port of the same host',
      { method: 'DELETE', path: '/api/v1/x', origin: 'http://127.0.0.1:9999' },
      'cross-origin',
    ],
    [
      'a cross-origin sign-in form post',
      { method: 'POST', path: '/login', cookie: 'none', origin: 'http://evil.example' },
      'cross-origin',
    ],
    [
      'a POST with a good bearer token and no Origin',
      { method: 'POST', path: '/api/v1/x', cookie: 'none', bearer: 'valid' },
      'pass',
    ],
    [
      'a wrong bearer token, even with a good cookie',
      { path: '/api/v1/x', bearer: 'invalid' },
      'unauthorized',
    ],
    [
      'a good bearer token at a foreign Host',
      { bearer: 'valid', host: 'evil.example:8791' },
      'misdirected',
    ],
  ])('%s', (_name, change, kind) => {
    expect(guardRequest({ ...base, ...change }).kind).toBe(kind);
  });
});
