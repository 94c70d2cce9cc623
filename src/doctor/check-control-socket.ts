import { ok, warn, type DoctorCheck } from './doctor-check.js';

export type ControlSocketFacts =
  | { readonly socketPath: string; readonly state: 'answering'; readonly version: string }
  | { readonly socketPath: string; readonly state: 'absent' | 'silent' };

/** Whether `serve` answers on the control socket. Not running is normal before the first start. */
export function checkControlSocket(facts: ControlSocketFacts, cliVersion: string): DoctorCheck {
  if (facts.state === 'absent') {
    return warn(
      'control-socket',
      `serve is not running (no ${facts.socketPath})`,
      'start it with `the-loop serve` (or `npm start` in a clone)',
    );
  }
  if (facts.state !== 'answering') {
    return warn(
      'control-socket',
      `${facts.socketPath} is there but nothing answers on it (serve stopped without cleaning up?)`,
      'start `the-loop serve`: it replaces a socket nobody answers on',
    );
  }
  if (facts.version !== cliVersion) {
    return warn(
      'control-socket',
      `serve ${facts.version} is running, but this the-loop is ${cliVersion}`,
      'restart serve so both run the same version',
    );
  }
  return ok('control-socket', `serve ${facts.version} answers on ${facts.socketPath}`);
}
