import { createHash } from 'node:crypto';

export type FakeUserType = 'User' | 'Bot';

export interface FakeUser {
  readonly login: string;
  readonly type?: FakeUserType;
}

/** Who the fake's token belongs to: a GitHub App's bot, which is who an installation token acts as. */
export const fakeBot = { login: 'the-loop-bot[bot]', type: 'Bot' } as const satisfies FakeUser;

/** GitHub's timestamps have whole seconds and a `Z`; clients that parse them expect exactly that. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A stable id per name, so one account or object has the same id in every response. */
export function stableId(name: string): number {
  return (createHash('sha1').update(name).digest().readUInt32BE(0) % 90_000_000) + 10_000_000;
}

export function nodeId(prefix: string, id: number): string {
  return `${prefix}_kwDO${Buffer.from(String(id)).toString('base64url')}`;
}

export function userTypeOf(user: FakeUser): FakeUserType {
  return user.type ?? (user.login.endsWith('[bot]') ? 'Bot' : 'User');
}

export function renderUser(user: FakeUser, apiUrl: string) {
  const id = stableId(user.login);
  const type = userTypeOf(user);
  return {
    login: user.login,
    id,
    node_id: nodeId(type === 'Bot' ? 'BOT' : 'U', id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${apiUrl}/users/${encodeURIComponent(user.login)}`,
    html_url:
      type === 'Bot'
        ? `https://github.com/apps/${user.login.replace(/\[bot\]$/, '')}`
        : `https://github.com/${user.login}`,
    type,
    site_admin: false,
  };
}
