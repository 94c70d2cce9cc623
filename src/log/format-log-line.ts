import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';
/** pino's numeric levels, as a person reads them. */
const levelNames: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Shown in their own places on the line, or not at all (`name` is always the-loop). */
const placedKeys = new Set(['level', 'time', 'name', 'event', 'msg', 'err', 'pid', 'hostname']);

/**
 * One pino JSON line as a person reads it on a terminal:
 * `09:41:02.123 INFO  delivery.delivered  ref=standing:demo origin=cli — delivered`.
 * The input is what pino wrote, so redaction has already happened; a line that is not a JSON
 * object is shown as it is rather than dropped.
 */
export function formatLogLine(line: string): string {
  const parsed = parseJsonOrUndefined(line);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return line;
  const entry = parsed as Record<string, unknown>;
  const level = typeof entry['level'] === 'number' ? (levelNames[entry['level']] ?? 'LEVEL') : '';
  const head = [clock(entry['time']), level.padEnd(5)];
  if (typeof entry['event'] === 'string') head.push(entry['event']);
  const fields = Object.entries(entry)
    .filter(([key]) => !placedKeys.has(key))
    .map(([key, value]) => `${key}=${show(value)}`);
  // Many lines repeat the event name as their message; once is enough.
  const msg = entry['msg'];
  const message =
    typeof msg === 'string' && msg !== '' && msg !== entry['event'] ? [`— ${msg}`] : [];
  const text = [...head, ...fields, ...message].join(' ');
  return [text, ...errorLines(entry['err'])].join('\n');
}

/** Local wall-clock time: the operator reading a terminal knows the date. */
function clock(time: unknown): string {
  if (typeof time !== 'number') return '--:--:--.---';
  const date = new Date(time);
  const two = (value: number) => String(value).padStart(2, '0');
  const ms = String(date.getMilliseconds()).padStart(3, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${ms}`;
}

function show(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** pino's err serializer gives `{type, message, stack}`; the stack is the useful part. */
function errorLines(err: unknown): string[] {
  if (typeof err !== 'object' || err === null)
    return err === undefined ? [] : [`  err=${show(err)}`];
  const record = err as Record<string, unknown>;
  const stack = typeof record['stack'] === 'string' ? record['stack'] : undefined;
  const message = typeof record['message'] === 'string' ? record['message'] : show(err);
  return (stack ?? message).split('\n').map((each) => `    ${each}`);
}
