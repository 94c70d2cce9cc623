import { isErrorCode, LoopError } from '../errors.js';
import type { ApiResult } from './create-api-client.js';

/**
 * The body of a 2xx answer; anything else becomes the LoopError the server described, so the CLI
 * branches on the same codes the server threw. A code this client does not know (a newer serve)
 * becomes `internal` but keeps the server's message, which is what the person needs to read.
 */
export function unwrap<T>(response: ApiResult<T>): T {
  if (response.status >= 200 && response.status < 300) return response.body;
  const body: unknown = response.body;
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = isErrorCode(fields.code) ? fields.code : 'internal';
  const message =
    typeof fields.error === 'string' && fields.error !== ''
      ? fields.error
      : `\`the-loop serve\` answered HTTP ${response.status}` +
        (typeof body === 'string' && body !== '' ? `: ${body.slice(0, 200)}` : '');
  throw new LoopError(code, message, { status: response.status });
}
