import path from 'node:path';
import { parseDocument } from 'yaml';

/**
 * Where a config file puts its state root, read as leniently as possible, for `the-loop reload`
 * (docs/design.md §22): the file may be refused as a whole (the reason to reload is an edit) and
 * serve must still be found. The YAML parser keeps what it could read around a syntax error;
 * anything but a usable string gives the default, `state`, beside the file.
 */
export function lenientStateRoot(text: string, configPath: string, home?: string): string {
  let root: unknown;
  try {
    root = parseDocument(text, { logLevel: 'silent' }).getIn(['state', 'root']);
  } catch {
    // A parser that gives up entirely leaves the default, as a file without `state.root` does.
    root = undefined;
  }
  const value = typeof root === 'string' && root !== '' ? root : 'state';
  const base = path.dirname(configPath);
  if ((value === '~' || value.startsWith('~/')) && home !== undefined && path.isAbsolute(home)) {
    return path.resolve(home, value.slice(2));
  }
  return path.resolve(base, value);
}
