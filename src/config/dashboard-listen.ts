import { parseListenAddress } from './listen-address.js';

/**
 * Where the dashboard listens (docs/design.md §19), as pure rules over the config: `off`, or a
 * `host:port` that must differ from `api.listen` and be loopback unless `dashboard.allowRemote`.
 */

export interface DashboardListen {
  readonly host: string;
  readonly port: number;
}

/** The listen address, or undefined when `dashboard.listen` is `off`. */
export function dashboardListen(listen: string): DashboardListen | undefined {
  if (listen === 'off') return undefined;
  const { host, port } = parseListenAddress(listen);
  return { host, port };
}

/** 127.0.0.0/8, ::1 and `localhost`: addresses no other machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** What is wrong with the dashboard keys taken together; [] when nothing is. */
export function dashboardListenProblems(dashboard: {
  readonly listen: string;
  readonly allowRemote: boolean;
  readonly apiListen: string;
}): { key: string; message: string }[] {
  if (dashboard.listen === 'off') return [];
  const problems: { key: string; message: string }[] = [];
  if (dashboard.apiListen !== '' && dashboard.apiListen === dashboard.listen) {
    problems.push({
      key: 'dashboard.listen',
      message: `is the same address as api.listen (${dashboard.listen}): give the dashboard its own port, or set it to \`off\``,
    });
  }
  const host = dashboard.listen.slice(0, dashboard.listen.lastIndexOf(':'));
  if (!dashboard.allowRemote && !isLoopbackHost(host)) {
    problems.push({
      key: 'dashboard.listen',
      message:
        `${host} is not a loopback address: every machine that reaches it could try to sign in; ` +
        'listen on 127.0.0.1, or set dashboard.allowRemote: true with TLS in front (docs/dashboard.md)',
    });
  }
  return problems;
}
