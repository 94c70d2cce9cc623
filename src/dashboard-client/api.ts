/** The page's calls to serve: same origin, the session cookie, JSON both ways. */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 401) {
    window.location.assign('/login');
    throw new ApiError('signed out', 401);
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : safeJson(text);
  if (!response.ok) {
    const message =
      typeof parsed === 'object' && parsed !== null && 'error' in parsed
        ? String((parsed as { error: unknown }).error)
        : `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status);
  }
  return parsed as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface SessionRow {
  readonly ref: string;
  readonly name: string;
  readonly kind: 'declared' | 'created' | 'undeclared' | 'work item';
  readonly status: string;
  readonly exitStatus?: number;
  readonly agentState: string | null;
  readonly harness: string;
  readonly cwd: string;
  readonly description: string;
  readonly page: string;
  readonly link?: { readonly label: string; readonly url: string };
}

export interface Overview {
  readonly instance: { readonly name: string; readonly scope: string };
  readonly surfaces: readonly { name: string; state: string; detail: string }[];
  readonly harnesses: readonly string[];
  readonly defaultHarness: string;
  /** The newest event's seq when the overview was made. */
  readonly seq: number;
  readonly sessions: readonly SessionRow[];
}

export function overview(): Promise<Overview> {
  return call<Overview>('GET', '/ui/overview');
}
