import type { Config } from './types.js';

/**
 * The one config a running serve holds (docs/design.md §22). A reload replaces it whole; a part
 * whose settings apply live reads it when it uses them, never once at construction.
 */
export interface LiveConfig {
  current(): Config;
  replace(next: Config): void;
  /**
   * A Config whose top-level keys are read from `current()` at the moment they are read, for the
   * parts that take a Config: `view.slack.authorizedUsers` read in a handler is the live list. A
   * part that copies a value out of it at construction keeps that copy (which is how the keys
   * that need a restart stay put: docs/configuration.md, "Reloading").
   */
  readonly view: Config;
}

export function createLiveConfig(initial: Config): LiveConfig {
  let config = initial;
  const view = new Proxy({} as Config, {
    get: (_target, key) => Reflect.get(config, key),
    has: (_target, key) => Reflect.has(config, key),
    ownKeys: () => Reflect.ownKeys(config),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(config, key);
      // The target is an empty, extensible object: every key must be reported configurable.
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  });
  return {
    current: () => config,
    replace(next) {
      config = next;
    },
    view,
  };
}

/** A setting a part takes either fixed (tests, one-off tools) or read at each use (serve). */
export type Live<T> = T | (() => T);

export function readLive<T>(value: Live<T>): T {
  return typeof value === 'function' ? (value as () => T)() : value;
}
