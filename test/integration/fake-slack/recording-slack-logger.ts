import { LogLevel, type Logger } from '@slack/logger';

export interface RecordingSlackLogger extends Logger {
  /** `<level> <message>` for every warning and error, so a test can assert on what was logged. */
  readonly lines: string[];
}

/** A logger for the Slack clients that records their complaints instead of printing them. */
export function createRecordingSlackLogger(): RecordingSlackLogger {
  const lines: string[] = [];
  let level = LogLevel.WARN;
  const record =
    (name: string) =>
    (...message: unknown[]) => {
      lines.push(`${name} ${message.map(String).join(' ')}`);
    };
  return {
    lines,
    debug: () => undefined,
    info: () => undefined,
    warn: record('warn'),
    error: record('error'),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
