import { describe, expect, it } from 'vitest';
import { parseVmStatus } from '../../../bench/parse-vm-status.js';

describe('parseVmStatus', () => {
  it('reads VmRSS and VmHWM from /proc/<pid>/status in MB', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n';
    expect(parseVmStatus(status)).toEqual({ rssMb: 100, peakMb: 200 });
  });

  it('refuses a status without the lines rather than reporting 0', () => {
    expect(() => parseVmStatus('Name:\tnode\n')).toThrow(/VmRSS/);
  });
});
