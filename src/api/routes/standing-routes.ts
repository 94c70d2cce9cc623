import type { AgentSay } from '../../agents/create-agent-say.js';
import { LoopError } from '../../errors.js';
import type { SessionDirectory } from './session-routes.js';
import type { StandingService } from '../../standing/create-standing-service.js';
import type { CreateInput } from '../../standing/validate-create.js';
import type { Route } from '../route.js';

/**
 * How a `say` carrying a session token is handled (docs/design.md §20): the token names the
 * sending session, whose agent then speaks, framed `agent:<sender>` and rate-limited.
 */
export interface AgentSayRoute {
  readonly directory: SessionDirectory;
  readonly say: AgentSay;
}

/** The standing-session verbs of docs/design.md §3.5, each a thin call into the standing service. */
export function standingRoutes(standing: StandingService, agents?: AgentSayRoute): Route[] {
  const name = (params: Record<string, string>): string => params['name'] ?? '';
  return [
    {
      method: 'GET',
      path: '/api/v1/standing-sessions',
      operationId: 'listStandingSessions',
      auth: 'operator',
      handler: async () => ({ status: 200, body: { sessions: await standing.list() } }),
    },
    {
      method: 'GET',
      path: '/api/v1/standing-sessions/{name}',
      operationId: 'getStandingSession',
      auth: 'operator',
      handler: async ({ params }) => ({ status: 200, body: await standing.get(name(params)) }),
    },
    {
      method: 'POST',
      path: '/api/v1/standing-sessions',
      operationId: 'createStandingSession',
      auth: 'operator',
      handler: async ({ body }) => {
        const created = await standing.create(objectBody(body) satisfies CreateInput);
        return { status: 201, body: created.session };
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/standing-sessions/{name}',
      operationId: 'deleteStandingSession',
      auth: 'operator',
      handler: async ({ params }) => {
        await standing.delete(name(params));
        return { status: 200, body: { name: name(params), deleted: true } };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/standing-sessions/{name}/start',
      operationId: 'startStandingSession',
      auth: 'operator',
      handler: async ({ params }) => ({ status: 200, body: await standing.start(name(params)) }),
    },
    {
      method: 'POST',
      path: '/api/v1/standing-sessions/{name}/stop',
      operationId: 'stopStandingSession',
      auth: 'operator',
      handler: async ({ params }) => ({ status: 200, body: await standing.stop(name(params)) }),
    },
    {
      method: 'POST',
      path: '/api/v1/standing-sessions/{name}/restart',
      operationId: 'restartStandingSession',
      auth: 'operator',
      handler: async ({ params }) => ({ status: 200, body: await standing.restart(name(params)) }),
    },
    {
      method: 'POST',
      path: '/api/v1/standing-sessions/{name}/say',
      operationId: 'sayToStandingSession',
      auth: 'operator',
      sessionToken: 'optional',
      handler: async ({ params, body, signal, sessionToken }) => {
        const input = objectBody(body);
        const unknown = Object.keys(input).filter((key) => key !== 'text' && key !== 'actor');
        if (unknown.length) {
          throw new LoopError(
            'bad_request',
            `unknown field ${unknown.map((key) => `\`${key}\``).join(', ')}; send {"text": "...", "actor": "..."}`,
          );
        }
        const text = input['text'];
        if (typeof text !== 'string') throw new LoopError('bad_request', 'send {"text": "..."}');
        if (sessionToken !== undefined && agents !== undefined) {
          const sender = await agents.directory.sessionForToken(sessionToken);
          if (!sender) {
            throw new LoopError(
              'forbidden',
              'this session token belongs to no session of this serve; a session can only speak as itself',
            );
          }
          const said = await agents.say(sender.ref, name(params), text, { signal });
          return { status: 200, body: said };
        }
        const actor =
          typeof input['actor'] === 'string' && input['actor'] ? input['actor'] : 'operator';
        return { status: 200, body: await standing.say(name(params), text, actor, { signal }) };
      },
    },
  ];
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new LoopError('bad_request', 'the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
