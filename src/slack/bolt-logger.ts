import { LogLevel, type Logger as SlackLogger } from '@slack/logger';
import type { Logger } from '../log/create-logger.js';

/**
 * Bolt and the Socket Mode client log through @slack/logger's interface; this sends their lines to
 * our pino logger (so they are JSON, levelled and redacted like everything else).
 */
export function createBoltLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack-sdk' });
  const debugOn = child.isLevelEnabled('debug');
  let level: LogLevel = LogLevel.INFO;
  const line = (args: unknown[]): string =>
    args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' ');
  return {
    // The Socket Mode client logs debug lines for every envelope: not even formatted unless wanted.
    // The level is read once: serve sets it at start (THE_LOOP_LOG_LEVEL), and asking pino each
    // time showed up in a burst's profile.
    debug: debugOn ? (...args) => child.debug(line(args)) : () => undefined,
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
