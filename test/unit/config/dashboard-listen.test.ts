import { describe, expect, it } from 'vitest';
import {
  dashboardListen,
  dashboardListenProblems,
  isLoopbackHost,
} from '../../../src/config/dashboard-listen.js';

describe('dashboard.listen', () => {
  it('is off, or host and port', () => {
    expect(dashboardListen('off')).toBeUndefined();
    expect(dashboardListen('127.0.0.1:8791')).toEqual({ host: '127.0.0.1', port: 8791 });
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['192.168.1.5', false],
    ['[::]', false],
    ['loop.example', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it.each([
    [{ listen: 'off', allowRemote: false, apiListen: '0.0.0.0:1' }, 0],
    [{ listen: '127.0.0.1:8791', allowRemote: false, apiListen: '127.0.0.1:8790' }, 0],
    [{ listen: '127.0.0.1:8790', allowRemote: false, apiListen: '127.0.0.1:8790' }, 1],
    [{ listen: '0.0.0.0:8791', allowRemote: false, apiListen: '' }, 1],
    [{ listen: '0.0.0.0:8791', allowRemote: true, apiListen: '' }, 0],
  ])('%o has %i problem(s)', (keys, count) => {
    expect(dashboardListenProblems(keys)).toHaveLength(count);
  });
});
