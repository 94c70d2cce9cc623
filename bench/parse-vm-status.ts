/** Resident memory of a process, in MB (MiB), from Linux's /proc/<pid>/status. */
export interface VmFigures {
  /** VmRSS: resident now. */
  readonly rssMb: number;
  /** VmHWM: the most it has been resident. */
  readonly peakMb: number;
}

export function parseVmStatus(text: string): VmFigures {
  const kb = (field: string): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
    if (!match?.[1]) throw new Error(`bench: no ${field} line in /proc status`);
    return Number(match[1]);
  };
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}
