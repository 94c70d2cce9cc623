/*
 * The soak's verdict (docs/design.md §18 Growth): is what serve holds (memory, descriptors, state
 * files) flat once warmed up, or still climbing? Pure, so test/unit/bench can table-test it.
 */

export interface SoakSample {
  /** Minutes since the soak began. */
  readonly minute: number;
  readonly rssMb: number;
  readonly fds: number;
  /** Files under the state root that must not pile up: records, inbox, bindings, event logs. */
  readonly stateFiles: number;
  /** Dedupe entries: two per Slack message, kept a week by design, so judged on their own. */
  readonly dedupeEntries: number;
  readonly eventLogBytes: number;
}

export interface Trend {
  /** Least-squares slope over the samples after warm-up, per minute. */
  readonly perMinute: number;
  readonly verdict: 'flat' | 'leak' | 'unclear';
}

/** Slopes per minute: at most `flat` is flat, above `leak` is a leak, between is unclear. */
export const soakThresholds = {
  rssMb: { flat: 0.2, leak: 0.5 },
  fds: { flat: 0.05, leak: 0.2 },
  stateFiles: { flat: 0.1, leak: 1 },
} as const;

/** The least-squares slope of y over x; 0 for fewer than two distinct x. */
export function leastSquaresSlope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

function trend(
  samples: readonly SoakSample[],
  pick: (sample: SoakSample) => number,
  limits: { readonly flat: number; readonly leak: number },
): Trend {
  const perMinute = leastSquaresSlope(samples.map((sample) => [sample.minute, pick(sample)]));
  const verdict = perMinute <= limits.flat ? 'flat' : perMinute > limits.leak ? 'leak' : 'unclear';
  return { perMinute, verdict };
}

export interface SoakVerdict {
  /** Samples judged: the second half (the first is warm-up). */
  readonly judged: number;
  readonly rssMb: Trend;
  readonly fds: Trend;
  readonly stateFiles: Trend;
  /** Dedupe entries per Slack message over the judged half: 2 by design (event id, channel+ts). */
  readonly dedupePerSlackMessage: number;
  /**
   * `too-short` when the soak ran under `minimumSoakMinutes` (its second half is still warm-up,
   * and a 1-minute run once called a GC's sawtooth a leak); else `leak` if any trend is a leak,
   * `unclear` if any is unclear, and `flat` otherwise.
   */
  readonly verdict: 'flat' | 'leak' | 'unclear' | 'too-short';
}

/** A soak shorter than this gives slopes but no verdict. */
export const minimumSoakMinutes = 10;

/** Judges the second half of the samples; the first half is warm-up (JIT, caches, pools). */
export function judgeSoak(samples: readonly SoakSample[], slackPerMinute: number): SoakVerdict {
  const judged = samples.slice(Math.floor(samples.length / 2));
  const rssMb = trend(judged, (sample) => sample.rssMb, soakThresholds.rssMb);
  const fds = trend(judged, (sample) => sample.fds, soakThresholds.fds);
  const stateFiles = trend(judged, (sample) => sample.stateFiles, soakThresholds.stateFiles);
  const dedupeSlope = leastSquaresSlope(
    judged.map((sample) => [sample.minute, sample.dedupeEntries]),
  );
  const verdicts = [rssMb.verdict, fds.verdict, stateFiles.verdict];
  return {
    judged: judged.length,
    rssMb,
    fds,
    stateFiles,
    dedupePerSlackMessage: slackPerMinute > 0 ? dedupeSlope / slackPerMinute : 0,
    verdict:
      (samples.at(-1)?.minute ?? 0) < minimumSoakMinutes
        ? 'too-short'
        : verdicts.includes('leak')
          ? 'leak'
          : verdicts.includes('unclear')
            ? 'unclear'
            : 'flat',
  };
}

/** The soak's lines for people: the samples over time, then the verdict with its thresholds. */
export function formatSoak(samples: readonly SoakSample[], verdict: SoakVerdict): string {
  const rows = samples.map(
    (sample) =>
      `  ${sample.minute.toFixed(1).padStart(6)} min  rss ${sample.rssMb.toFixed(1).padStart(6)} MB` +
      `  fds ${String(sample.fds).padStart(4)}  state files ${String(sample.stateFiles).padStart(5)}` +
      `  dedupe ${String(sample.dedupeEntries).padStart(6)}` +
      `  events.jsonl ${(sample.eventLogBytes / 1024).toFixed(0).padStart(7)} kB`,
  );
  const line = (name: string, value: Trend, unit: string, limits: { flat: number; leak: number }) =>
    `  ${name.padEnd(12)} ${value.perMinute.toFixed(3).padStart(8)} ${unit}/min  ${value.verdict}` +
    `  (flat ≤ ${limits.flat}, leak > ${limits.leak})`;
  return [
    'soak: samples',
    ...rows,
    `soak: slopes over the last ${verdict.judged} samples (the first half is warm-up)`,
    line('rss', verdict.rssMb, 'MB', soakThresholds.rssMb),
    line('fds', verdict.fds, 'fds', soakThresholds.fds),
    line('state files', verdict.stateFiles, 'files', soakThresholds.stateFiles),
    `  dedupe       ${verdict.dedupePerSlackMessage.toFixed(2)} per Slack message (a constant by design: its event id and channel+ts, kept a week, pruned hourly)`,
    verdict.verdict === 'too-short'
      ? `soak: verdict too-short (under ${minimumSoakMinutes} minutes the second half is still warm-up; run BENCH_SOAK_MINUTES=30)`
      : `soak: verdict ${verdict.verdict}`,
  ].join('\n');
}
