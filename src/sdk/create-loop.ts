import { type ApiClient, unwrap } from '../api/create-api-client.js';
import type { StatusReport } from '../api/routes/status-routes.js';
import type { HttpMethod } from '../api/route.js';
import type { InstanceDescription } from '../instance/describe-instance.js';
import type { DeliveryStatus } from '../delivery/delivery-statuses.js';
import type { SayAnswer } from '../delivery/first-answer.js';
import { LoopError } from '../errors.js';
import type { PermissionView } from '../permissions/permission-types.js';
import type { ReplyFailure, ReplyTarget } from '../replies/reply-router.js';
import type { StandingView, StartOutcome } from '../standing/standing-types.js';
import type { WorkItemView } from '../workitems/workitem-types.js';
import { readEvents, type EventsOptions, type LoopEvent } from './read-events.js';

/** What `loop.standing.create` takes (docs/design.md §3.5). */
export interface CreateStandingInput {
  readonly name: string;
  /** A configured harness name; default `defaults.harness`. */
  readonly harness?: string;
  /** Absolute, or relative to serve's config; must be under `standing.allowedRoots`. */
  readonly cwd?: string;
  readonly prompt?: string;
  readonly description?: string;
  readonly slackChannel?: string;
  /** Start it now (default true). */
  readonly start?: boolean;
  /** Start it whenever serve starts (default true). */
  readonly autoStart?: boolean;
}

export interface VerbAnswer<Outcome extends string> {
  readonly outcome: Outcome;
  readonly session: StandingView;
}

export interface PostAnswer {
  readonly targets: readonly ReplyTarget[];
  readonly failed?: readonly ReplyFailure[];
}

/** The typed client `connect()` gives (docs/sdk.md). Every refusal is a LoopError with a `code`. */
export interface Loop {
  readonly standing: {
    list(): Promise<StandingView[]>;
    get(name: string): Promise<StandingView>;
    create(input: CreateStandingInput): Promise<StandingView>;
    delete(name: string): Promise<{ readonly name: string; readonly deleted: true }>;
    start(name: string): Promise<VerbAnswer<StartOutcome>>;
    stop(name: string): Promise<VerbAnswer<'stopped' | 'already-stopped'>>;
    restart(name: string): Promise<VerbAnswer<StartOutcome>>;
    /**
     * Types `text` into the session through the delivery core. `actor` names the person in the
     * message's header (`[cli · <actor> · 02be]`); a client holding a session token speaks as that
     * session's agent instead (`[agent:<sender> · 02be]`).
     */
    say(name: string, text: string, options?: { readonly actor?: string }): Promise<SayAnswer>;
  };
  readonly workItems: {
    list(): Promise<WorkItemView[]>;
    /** `ref`: `github:owner/repo#12` or the issue's URL. */
    start(ref: string): Promise<{ readonly outcome: string }>;
    stop(ref: string): Promise<{ readonly outcome: string }>;
  };
  instance(): Promise<InstanceDescription>;
  status(): Promise<StatusReport>;
  readonly permissions: {
    list(): Promise<PermissionView[]>;
    allow(id: string, options?: { readonly actor?: string }): Promise<PermissionAnswer>;
    allowAlways(id: string, options?: { readonly actor?: string }): Promise<PermissionAnswer>;
    deny(
      id: string,
      options?: { readonly actor?: string; readonly reason?: string },
    ): Promise<PermissionAnswer>;
  };
  readonly deliveries: {
    get(id: string): Promise<DeliveryStatus>;
  };
  /** The event stream (`GET /api/v1/stream`), resumed after a dropped connection. */
  events(options?: EventsOptions): AsyncIterable<LoopEvent>;
  /** Inside a session (a session token): reply to the people it works for, as `the-loop post`. */
  post(text: string): Promise<PostAnswer>;
  /** Any other endpoint of schemas/openapi.yaml; a non-2xx answer throws its LoopError. */
  request<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T>;
}

export interface PermissionAnswer {
  readonly id: string;
  readonly outcome: string;
}

/** The header a session's token travels in (docs/design.md §3.5). */
const sessionTokenHeader = 'X-The-Loop-Session-Token';

export function createLoop(client: ApiClient, sessionToken?: string): Loop {
  const call = async <T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<T> => unwrap(await client.request<T>(method, path, body, headers));
  const asSession = (): Record<string, string> =>
    sessionToken ? { [sessionTokenHeader]: sessionToken } : {};
  const standingPath = (name: string, verb?: string): string =>
    `/api/v1/standing-sessions/${encodeURIComponent(name)}${verb ? `/${verb}` : ''}`;
  const decide =
    (verb: string) =>
    (id: string, options: { actor?: string; reason?: string } = {}): Promise<PermissionAnswer> =>
      call('POST', `/api/v1/permissions/${encodeURIComponent(id)}/${verb}`, {
        ...(options.actor ? { actor: options.actor } : {}),
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      });

  return {
    standing: {
      list: async () =>
        (await call<{ sessions: StandingView[] }>('GET', '/api/v1/standing-sessions')).sessions,
      get: (name) => call('GET', standingPath(name)),
      create: (input) => call('POST', '/api/v1/standing-sessions', input),
      delete: (name) => call('DELETE', standingPath(name)),
      start: (name) => call('POST', standingPath(name, 'start')),
      stop: (name) => call('POST', standingPath(name, 'stop')),
      restart: (name) => call('POST', standingPath(name, 'restart')),
      say: (name, text, options = {}) =>
        call(
          'POST',
          standingPath(name, 'say'),
          { text, ...(options.actor ? { actor: options.actor } : {}) },
          asSession(),
        ),
    },
    workItems: {
      list: async () =>
        (await call<{ workItems: WorkItemView[] }>('GET', '/api/v1/work-items')).workItems,
      start: (ref) => call('POST', '/api/v1/work-items/start', { ref }),
      stop: (ref) => call('POST', '/api/v1/work-items/stop', { ref }),
    },
    instance: () => call('GET', '/api/v1/instance'),
    status: () => call('GET', '/api/v1/status'),
    permissions: {
      list: () => call('GET', '/api/v1/permissions'),
      allow: decide('allow'),
      allowAlways: decide('allow-always'),
      deny: decide('deny'),
    },
    deliveries: {
      get: (id) => call('GET', `/api/v1/deliveries/${encodeURIComponent(id)}`),
    },
    events: (options) => readEvents(client, options),
    post: async (text) => {
      if (!sessionToken) {
        throw new LoopError(
          'unauthorized',
          'post speaks as a session: connect from inside one (THE_LOOP_SESSION_TOKEN) or pass { sessionToken }',
        );
      }
      return call('POST', '/api/v1/post', { text }, asSession());
    },
    request: (method, path, body) => call(method, path, body),
  };
}
