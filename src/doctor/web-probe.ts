// One HTTP request a check makes (to Slack or GitHub), and reading its answer.
import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';

/**
 * What one HTTP request to Slack or GitHub came back with, reduced to what the checks decide on.
 * `body` is the parsed JSON (or undefined); `scopes` is the `x-oauth-scopes` header, split.
 */
export type WebProbe =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly body: unknown;
      readonly scopes?: readonly string[];
    }
  | { readonly kind: 'unreachable'; readonly error: string };

/** A string field of a JSON object body, or undefined. */
export function bodyField(probe: WebProbe, name: string): string | undefined {
  if (probe.kind !== 'answered') return undefined;
  const body = probe.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Slack answers 200 with `{ok: false, error}` for a refused call. */
export function slackOk(probe: WebProbe): boolean {
  if (probe.kind !== 'answered' || probe.status !== 200) return false;
  const body = probe.body;
  return typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === true;
}

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

/** What the Slack and GitHub probes need: the env with the tokens, a fetch, the user agent. */
export interface SurfaceDeps {
  readonly env: NodeJS.ProcessEnv;
  readonly fetch?: FetchLike;
  readonly userAgent: string;
}
