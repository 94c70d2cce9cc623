export type ApiArgs = Record<string, unknown>;

/**
 * Fields a form-encoded call carries as JSON strings (the Web API client flattens objects that
 * way). Only these are parsed back: a message `text` that happens to look like JSON stays text.
 */
const jsonFields = new Set([
  'blocks',
  'attachments',
  'metadata',
  'view',
  'user_auth_blocks',
  'files',
]);

/**
 * A Web API request body as the method's arguments, with the token Slack also accepts in the body
 * taken out of them. Form-encoded (what `@slack/web-api` sends) and JSON bodies are both accepted.
 */
export function parseApiBody(
  contentType: string | undefined,
  raw: string,
): { args: ApiArgs; bodyToken: string | undefined } | { invalidJson: true } {
  const args = contentType?.includes('application/json') ? parseJsonObject(raw) : parseForm(raw);
  if (args === undefined) return { invalidJson: true };
  const { token, ...rest } = args;
  return { args: rest, bodyToken: typeof token === 'string' ? token : undefined };
}

function parseJsonObject(raw: string): ApiArgs | undefined {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    return isObject ? (value as ApiArgs) : undefined;
  } catch {
    return undefined;
  }
}

function parseForm(raw: string): ApiArgs {
  const args: ApiArgs = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    args[key] = jsonFields.has(key) ? parseJsonField(value) : value;
  }
  return args;
}

function parseJsonField(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
