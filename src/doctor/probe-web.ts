import type { WebProbe } from './web-probe.js';
import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';

export interface WebRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * One request to Slack or GitHub, never thrown: a network failure or timeout is a fact the checks
 * report. No retries — doctor says what is true now, and says it quickly.
 */
export async function probeWeb(
  request: WebRequest,
  options: { fetch?: FetchLike; timeoutMs?: number } = {},
): Promise<WebProbe> {
  const send = options.fetch ?? fetch;
  try {
    const response = await send(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    const scopes = response.headers.get('x-oauth-scopes');
    return {
      kind: 'answered',
      status: response.status,
      // Not JSON (a proxy's HTML page, say): the checks then see no fields and report the status.
      body: parseJsonOrUndefined(text),
      ...(scopes === null ? {} : { scopes: splitScopes(scopes) }),
    };
  } catch (error) {
    return { kind: 'unreachable', error: describe(error) };
  }
}

/** `chat:write,channels:history, commands` → the scope names. */
export function splitScopes(header: string): string[] {
  return header
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer within 10 s';
  const cause = (error as { cause?: unknown }).cause;
  const code =
    typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}
