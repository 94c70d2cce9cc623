import { LoopError } from '../errors.js';

/**
 * What `api.listen` may be besides "": `host:port`, the host a name, an IPv4 address or a bracketed
 * IPv6 address. schemas/config.schema.json has the same pattern (a test keeps the two equal), so a
 * value the config accepts is one this reads.
 */
export const listenAddressPattern = '^(?:\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+):[0-9]{1,5}$';

const listenAddress = new RegExp(listenAddressPattern);

/** `host:port` as its parts; the host keeps its brackets, as node's listen takes it. */
export function parseListenAddress(listen: string): { host: string; port: number } {
  const colon = listen.lastIndexOf(':');
  if (!listenAddress.test(listen)) {
    throw new LoopError('config_invalid', `api.listen must be host:port, not \`${listen}\``);
  }
  return { host: listen.slice(0, colon), port: Number(listen.slice(colon + 1)) };
}

/** The control server's TCP listener, from `api.listen` and its token: none when `api.listen` is "". */
export function tcpListenOption(
  listen: string,
  token: string,
): { tcp?: { host: string; port: number; token: string } } {
  return listen ? { tcp: { ...parseListenAddress(listen), token } } : {};
}
