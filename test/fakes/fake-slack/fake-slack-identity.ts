/** Who the fake workspace and its one app are; every payload and reply is built from these. */
export interface FakeSlackIdentity {
  readonly botToken: string;
  readonly appToken: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly teamDomain: string;
  readonly apiAppId: string;
  /** The deprecated verification token Slack still puts in every payload. */
  readonly verificationToken: string;
  readonly users: Readonly<Record<string, FakeSlackUser>>;
  /** Sent as `x-oauth-scopes` on answers to the bot token, as Slack does; none when undefined. */
  readonly scopes?: readonly string[];
}

export interface FakeSlackUser {
  readonly name: string;
  readonly real_name?: string;
}

export interface FakeSlackOptions {
  readonly botToken?: string;
  readonly appToken?: string;
  readonly botUserId?: string;
  readonly teamId?: string;
  readonly users?: Record<string, FakeSlackUser>;
  /** The bot token's granted scopes (the `x-oauth-scopes` header); no header when omitted. */
  readonly scopes?: readonly string[];
  /** The clock for `at`, `sentAt`, `ackedAt` and `event_time`; Date.now by default. */
  readonly now?: () => number;
  /**
   * Hand each envelope to the next open Socket Mode connection in turn, as Slack spreads one app's
   * envelopes over all its connections; by default every envelope goes to the newest one.
   */
  readonly spread?: boolean;
}

export function fakeSlackIdentity(options: FakeSlackOptions): FakeSlackIdentity {
  return {
    botToken: options.botToken ?? 'xoxb-fake-bot-token',
    appToken: options.appToken ?? 'xapp-fake-app-token',
    botUserId: options.botUserId ?? 'U0FAKEBOT',
    botId: 'B0FAKEBOT',
    teamId: options.teamId ?? 'T0FAKE',
    teamDomain: 'fake-workspace',
    apiAppId: 'A0FAKE',
    verificationToken: 'fake-verification-token',
    users: options.users ?? {},
    ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
  };
}
