/**
 * Which requests are the conversation's turns (they take the next scripted answer) and which are
 * Claude Code's side requests (a session title, a topic check, token counts, a quota probe), told
 * apart by shape: a turn is a streamed `/v1/messages` call that offers tools to the model.
 */
export type RequestKind = 'turn' | 'side' | 'count_tokens' | 'other';

export function classifyRequest(method: string, pathname: string, body: unknown): RequestKind {
  if (method !== 'POST') return 'other';
  if (pathname === '/v1/messages/count_tokens') return 'count_tokens';
  if (pathname !== '/v1/messages') return 'other';
  if (!isRecord(body)) return 'side';
  const tools = body.tools;
  return body.stream === true && Array.isArray(tools) && tools.length > 0 ? 'turn' : 'side';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
