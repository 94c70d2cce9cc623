import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormat } from './choose-log-format.js';
import { createPrettyDestination } from './create-pretty-destination.js';

export type { Logger } from 'pino';
export type { LogFormat } from './choose-log-format.js';

/**
 * Fields that may hold a secret anywhere in a log object. pino's redaction works on paths, so
 * every place a token can sit is listed once here rather than remembered at each call site.
 */
const redactPaths = [
  'token',
  'secret',
  'authorization',
  'sessionToken',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.sessionToken',
  'headers.authorization',
  'headers["x-the-loop-session-token"]',
  'req.headers.authorization',
  'req.headers["x-the-loop-session-token"]',
  'env.SLACK_BOT_TOKEN',
  'env.SLACK_APP_TOKEN',
  'env.SLACK_SIGNING_SECRET',
  'env.GITHUB_TOKEN',
  'env.GITHUB_WEBHOOK_SECRET',
  'env.THE_LOOP_API_TOKEN',
  'env.THE_LOOP_SESSION_TOKEN',
];

export interface LoggerOptions {
  readonly level?: string;
  readonly destination?: DestinationStream;
  readonly name?: string;
  /** `json` (the default) or readable lines for a terminal; see chooseLogFormat. */
  readonly format?: LogFormat;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = {
    name: options.name ?? 'the-loop',
    level: options.level ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: undefined,
  };
  // Pretty lines are formatted from pino's own JSON, after redaction, so no secret can slip past.
  const destination =
    options.format === 'pretty'
      ? createPrettyDestination(options.destination ?? process.stdout)
      : options.destination;
  return destination ? pino(settings, destination) : pino(settings);
}

/** A logger that drops everything; for tests and for CLI commands that print their own output. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
