const unitMs = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `fleet.retention` (`24h`, `90m`, …; the schema checks the form) in milliseconds. */
export function parseRetention(text: string): number {
  const match = /^([1-9][0-9]*)([smhd])$/.exec(text);
  if (!match) return unitMs.h * 24;
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}
