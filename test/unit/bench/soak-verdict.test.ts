import { describe, expect, it } from 'vitest';
import { judgeSoak, leastSquaresSlope, type SoakSample } from '../../../bench/soak-verdict.js';

const samples = (count: number, shape: (minute: number) => Partial<SoakSample>): SoakSample[] =>
  Array.from({ length: count }, (_, index) => ({
    minute: index,
    rssMb: 100,
    fds: 40,
    stateFiles: 30,
    dedupeEntries: 10 * index,
    eventLogBytes: 0,
    ...shape(index),
  }));

describe('leastSquaresSlope', () => {
  it.each([
    [[], 0],
    [[[1, 5]], 0],
    [
      [
        [0, 0],
        [1, 2],
        [2, 4],
      ],
      2,
    ],
    [
      [
        [0, 3],
        [1, 3],
        [2, 3],
      ],
      0,
    ],
    [
      [
        [0, 1],
        [1, 0],
        [2, 1],
        [3, 0],
      ],
      -0.2,
    ],
  ] as const)('%j → %d', (points, slope) => {
    expect(leastSquaresSlope(points)).toBeCloseTo(slope);
  });
});

describe('judgeSoak', () => {
  it('gives no verdict on a soak shorter than ten minutes, however its slopes look', () => {
    const short = judgeSoak(
      samples(9, (minute) => ({ rssMb: 90 + minute * 6 })),
      10,
    );
    expect(short.rssMb.verdict).toBe('leak');
    expect(short.verdict).toBe('too-short');
    expect(
      judgeSoak(
        samples(11, () => ({})),
        10,
      ).verdict,
    ).toBe('flat');
  });

  it('calls a warm-up that levels off flat: only the second half is judged', () => {
    const verdict = judgeSoak(
      samples(30, (minute) => ({
        rssMb: minute < 15 ? 90 + minute * 2 : 120 + (minute % 2) * 0.5,
      })),
      10,
    );
    expect(verdict.judged).toBe(15);
    expect(verdict.rssMb.verdict).toBe('flat');
    expect(verdict.verdict).toBe('flat');
    expect(verdict.dedupePerSlackMessage).toBeCloseTo(1);
  });

  it('calls memory still climbing at 1 MB a minute a leak', () => {
    const verdict = judgeSoak(
      samples(30, (minute) => ({ rssMb: 90 + minute })),
      10,
    );
    expect(verdict.rssMb).toMatchObject({ verdict: 'leak' });
    expect(verdict.rssMb.perMinute).toBeCloseTo(1);
    expect(verdict.verdict).toBe('leak');
  });

  it('calls a descriptor lost every two minutes a leak, and a slow climb unclear', () => {
    expect(
      judgeSoak(
        samples(30, (minute) => ({ fds: 40 + minute / 2 })),
        10,
      ).fds.verdict,
    ).toBe('leak');
    const slow = judgeSoak(
      samples(30, (minute) => ({ stateFiles: 30 + minute / 2 })),
      10,
    );
    expect(slow.stateFiles.verdict).toBe('unclear');
    expect(slow.verdict).toBe('unclear');
  });
});
