import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log/create-logger.js';

/**
 * Readable names for framing (`[slack · @dana in #ops]`): looked up once, cached, and falling back
 * to the id when Slack cannot say — a name is nice to have, never worth failing a delivery.
 */
export interface SlackNames {
  user(id: string): Promise<string>;
  channel(id: string): Promise<string>;
}

export function createSlackNames(options: {
  readonly client: WebClient;
  readonly logger: Logger;
}): SlackNames {
  const users = new Map<string, Promise<string>>();
  const channels = new Map<string, Promise<string>>();
  const lookup = (
    cache: Map<string, Promise<string>>,
    id: string,
    fetch: () => Promise<string | undefined>,
  ) => {
    let name = cache.get(id);
    if (!name) {
      name = fetch().then(
        (found) => found || id,
        (error: unknown) => {
          cache.delete(id);
          options.logger.debug(
            { event: 'slack.name_lookup_failed', id, err: error },
            'name lookup failed',
          );
          return id;
        },
      );
      cache.set(id, name);
    }
    return name;
  };
  return {
    user: (id) =>
      lookup(users, id, async () => {
        const result = await options.client.users.info({ user: id });
        return result.user?.profile?.display_name || result.user?.name;
      }),
    channel: (id) =>
      lookup(
        channels,
        id,
        async () => (await options.client.conversations.info({ channel: id })).channel?.name,
      ),
  };
}
