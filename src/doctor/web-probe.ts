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
