import { LogLevel, type Logger as SlackLogger } from '@slack/logger';
import type { Logger } from '../log/create-logger.js';

/**
 * Bolt and the Socket Mode client log through @slack/logger's interface; this sends their lines to
 * our pino logger (so they are JSON, levelled and redacted like everything else).
 */
export function createBoltLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack-sdk' });
  let level: LogLevel = LogLevel.INFO;
  const line = (args: unknown[]): string =>
    args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' ');
  return {
    // The Socket Mode client logs a debug line per envelope: not even formatted unless wanted.
    debug: (...args) => {
      if (child.isLevelEnabled('debug')) child.debug(line(args));
    },
    info: (...args) => child.info(line(args)),
    warn: (...args) => child.warn(line(args)),
    error: (...args) => child.error(line(args)),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
