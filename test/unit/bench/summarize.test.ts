import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatReport, judgeTargets, summarize, targetSpecs } from '../../../bench/summarize.js';

const floor = { samples: [4, 5, 6], tmuxCallSamples: [4, 4, 4] };
const deliver = {
  samples: [10, 11, 12],
  apiSamples: [9, 10, 11],
  // The raw deliveries taken in turns with the samples: the deliver ratios divide by these.
  floorSamples: [2, 2.5, 3],
  startupMs: 500,
};

describe('summarize', () => {
  it('gives the deliver ratios to the floor taken in turns with them, and nulls for a scenario that did not run', () => {
    const figures = summarize({ quick: false, submitDelayMs: 6, floor, deliver, durationS: 1 });
    expect(figures).toMatchObject({
      floor_p50_ms: 5,
      deliver_floor_p50_ms: 2.5,
      deliver_p50_ms: 11,
      deliver_p50_ratio: 4.4,
      deliver_p99_ratio: 4.8,
      // (11 − the 6 ms settle) / 2.5, not / the floor scenario's 5
      deliver_less_settle_p50_ratio: 2,
      startup_plain_ms: 500,
      burst_lost: null,
      scale_rss_mb: null,
      webhook_per_s: null,
    });
  });

  it('judges the hook shim against the bare curl of the same run, not the tmux floor', () => {
    const hooks = { shimSamples: [10, 12, 14], curlSamples: [5, 6, 7], cliSamples: [200] };
    const figures = summarize({ quick: false, submitDelayMs: 30, floor, hooks, durationS: 1 });
    expect(figures).toMatchObject({
      hooks_shim_p50_ms: 12,
      hooks_curl_p50_ms: 6,
      hooks_cli_p50_ms: 200,
      hooks_shim_p50_ratio: 2,
    });
  });

  it('judges the burst ack on the median of its rounds, and shows the worst round', () => {
    const burst = {
      sessions: 50,
      messages: 1_000,
      rounds: 3,
      lost: 0,
      duplicates: 0,
      unexpected: 0,
      orderOk: true,
      ackSamples: [10, 20, 30],
      roundAckP99s: [60, 240, 80],
      boltRoundAckP99s: [50, 70, 60],
      unacked: 0,
      ackedPerS: 8_000,
      durationS: 15,
      msgsPerS: 200,
    };
    const figures = summarize({ quick: false, submitDelayMs: 6, floor, burst, durationS: 1 });
    expect(figures).toMatchObject({
      burst_rounds: 3,
      burst_ack_p99_ms: 80,
      burst_ack_p99_worst_ms: 240,
      burst_bolt_ack_p99_ms: 60,
      burst_ack_p99_bolt_ratio: 1.33,
    });
    expect(judgeTargets(figures)['burst_ack_p99']).toBe(true);
  });

  it('has every key the issue names in the JSON line', () => {
    const figures = summarize({ quick: true, submitDelayMs: 30, durationS: 0 });
    for (const key of [
      'floor_p50_ms',
      'deliver_p50_ms',
      'deliver_p99_ms',
      'deliver_p50_ratio',
      'deliver_less_settle_p50_ratio',
      'burst_messages',
      'burst_lost',
      'burst_order_ok',
      'burst_msgs_per_s',
      'burst_ack_p99_ms',
      'burst_bolt_ack_p99_ms',
      'burst_ack_p99_bolt_ratio',
      'webhook_per_s',
      'webhook_p99_ms',
      'webhook_judged',
      'scale_rss_mb',
      'scale_sessions',
      'scale_bindings',
      'scale_list_ms',
      'scale_list_ratio',
      'startup_ms',
      'startup_empty_ms',
      'startup_ratio',
      'hooks_shim_p50_ms',
      'hooks_shim_p99_ms',
      'hooks_curl_p50_ms',
      'hooks_curl_p99_ms',
      'hooks_shim_p50_ratio',
    ]) {
      expect(figures).toHaveProperty(key);
    }
  });
});

describe('judgeTargets', () => {
  const passing = {
    deliver_less_settle_p50_ratio: 1,
    deliver_nosettle_p50_ratio: 1,
    burst_lost: 0,
    burst_order_ok: true,
    burst_ack_p99_bolt_ratio: 1.5,
    webhook_per_s: 500,
    webhook_judged: 2_000,
    webhook_deliveries: 2_000,
    scale_rss_mb: 120,
    scale_list_ratio: 2,
    startup_ratio: 2,
    hooks_shim_p50_ratio: 2,
    real_say_p50_ratio: 1.5,
    fleet_hop_p50_ratio: 1.5,
    fleet_burst_lost: 0,
    fleet_burst_order_ok: true,
    fleet_burst_ack_p99_bolt_ratio: 3,
  };

  it('meets every target exactly at its limit', () => {
    expect(Object.values(judgeTargets(passing)).every(Boolean)).toBe(true);
  });

  it.each([
    ['deliver_p50', { deliver_less_settle_p50_ratio: 1.01 }],
    ['deliver_path_p50', { deliver_nosettle_p50_ratio: 1.01 }],
    ['burst_lossless', { burst_lost: 1 }],
    ['burst_order', { burst_order_ok: false }],
    ['burst_ack_p99', { burst_ack_p99_bolt_ratio: 1.51 }],
    ['burst_ack_p99', { burst_ack_p99_bolt_ratio: null }],
    ['webhook_per_s', { webhook_per_s: 499 }],
    ['webhook_all_judged', { webhook_judged: 1_999 }],
    ['scale_rss', { scale_rss_mb: 120.1 }],
    ['scale_list', { scale_list_ratio: 2.01 }],
    ['startup_bindings', { startup_ratio: 2.01 }],
    ['startup_bindings', { startup_ratio: null }],
    ['scale_list', { scale_list_ratio: null }],
    ['hooks_p50', { hooks_shim_p50_ratio: 2.01 }],
    ['real_say_p50', { real_say_p50_ratio: 1.51 }],
    ['fleet_hop', { fleet_hop_p50_ratio: 1.51 }],
    ['fleet_burst_lossless', { fleet_burst_lost: 1 }],
    ['fleet_burst_order', { fleet_burst_order_ok: false }],
    ['fleet_burst_ack_p99', { fleet_burst_ack_p99_bolt_ratio: 3.01 }],
  ])('misses %s', (target, change) => {
    expect(judgeTargets({ ...passing, ...change })[target]).toBe(false);
  });
});

describe('summarize, start-up', () => {
  it('judges start-up with bindings against the one without, in the same run', () => {
    const scale = {
      sessions: 2,
      bindings: 10,
      startupMs: 900,
      startupEmptyMs: 600,
      idleRssMb: 80,
      rssMb: 100,
      peakRssMb: 110,
      listApiMs: 8,
      listCliMs: 300,
      cliFloorMs: 200,
    };
    const figures = summarize({ quick: false, submitDelayMs: 30, floor, scale, durationS: 1 });
    expect(figures).toMatchObject({ startup_ratio: 1.5, scale_list_ratio: 1.6 });
  });
});

describe('formatReport', () => {
  it('lists each figure and says which targets were missed', () => {
    const report = formatReport(
      { floor_p50_ms: 5, deliver_less_settle_p50_ratio: 9.5, burst_lost: null },
      { deliver_p50: false, burst_lossless: true },
    );
    expect(report).toMatch(/^floor_p50_ms\s+5$/m);
    expect(report).toMatch(/^burst_lost\s+—$/m);
    expect(report).toMatch(
      /^deliver_p50\s+deliver_less_settle_p50_ratio = 9\.5\s+≤ 1\.0 × floor \+ submit_delay_ms\s+FAIL$/m,
    );
    expect(report).toMatch(/^burst_lossless\s+burst_lost = —\s+0 lost\s+PASS$/m);
  });

  it('says a target that could not be measured here is skipped, and why, instead of judging it', () => {
    const fleetHop = targetSpecs.filter((spec) => spec.name === 'fleet_hop');
    const report = formatReport({ fleet_hop_p50_ratio: null }, {}, fleetHop, {
      fleet_hop: 'nats-server is not installed',
    });
    expect(report).toMatch(
      /^fleet_hop\s+fleet_hop_p50_ratio = —\s+≤ 1\.5 × local\s+SKIPPED: nats-server is not installed$/m,
    );
  });
});

describe('docs/operations.md', () => {
  it('lists every target the bench judges, each on the figure it is judged on', () => {
    const text = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    const table = text.slice(text.indexOf('| target '));
    const rows = [...table.matchAll(/^\| `([a-z0-9_]+)` +\| `([a-z0-9_]+)`/gm)].map((match) => [
      match[1],
      match[2],
    ]);
    expect(rows).toEqual(targetSpecs.map((spec) => [spec.name, spec.figure]));
  });
});
