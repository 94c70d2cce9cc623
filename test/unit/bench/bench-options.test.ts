import { describe, expect, it } from 'vitest';
import { benchOptions } from '../../../bench/bench-options.js';

describe('benchOptions', () => {
  it('runs the sizes the issue names by default, building first and bursting at once', () => {
    expect(benchOptions({})).toMatchObject({
      quick: false,
      build: true,
      burstSessions: 50,
      burstMessages: 1_000,
      burstRounds: 3,
      burstRate: 0,
      webhookConcurrency: 16,
      scaleSessions: 200,
      scaleBindings: 10_000,
    });
  });

  it('shrinks every scenario for BENCH_QUICK=1', () => {
    expect(benchOptions({ BENCH_QUICK: '1' })).toMatchObject({
      quick: true,
      burstSessions: 10,
      burstMessages: 100,
      burstRounds: 1,
      webhookDeliveries: 200,
      scaleSessions: 20,
    });
  });

  it('takes overrides and refuses ones that are not whole numbers', () => {
    expect(benchOptions({ BENCH_ITERATIONS: '7', BENCH_SKIP_BUILD: '1' })).toMatchObject({
      iterations: 7,
      build: false,
    });
    expect(() => benchOptions({ BENCH_ITERATIONS: '0' })).toThrow(/BENCH_ITERATIONS/);
    expect(() => benchOptions({ BENCH_BURST_RATE: 'fast' })).toThrow(/BENCH_BURST_RATE/);
  });

  it('runs only the scenarios BENCH_ONLY names, and refuses a name it does not know', () => {
    expect(benchOptions({}).only).toBeUndefined();
    expect([...(benchOptions({ BENCH_ONLY: 'hooks, floor' }).only ?? [])]).toEqual([
      'hooks',
      'floor',
    ]);
    expect(() => benchOptions({ BENCH_ONLY: 'hook' })).toThrow(/BENCH_ONLY names hook/);
  });
});
