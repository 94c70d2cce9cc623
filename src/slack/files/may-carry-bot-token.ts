/** Where Slack serves `url_private_download` files. */
export const slackFileHost = 'files.slack.com';

/**
 * Whether a download URL may be sent the bot token: only Slack's own file host over https, or the
 * origin of SLACK_API_URL when one is set (a Slack-compatible server, the tests' fake). A URL
 * anywhere else could be a message's way of collecting the token, so it is not fetched at all.
 */
export function mayCarryBotToken(url: string, apiUrl: string | undefined): boolean {
  const target = parseUrl(url);
  if (target === undefined) return false;
  if (target.protocol === 'https:' && target.hostname === slackFileHost && target.port === '') {
    return true;
  }
  const api = apiUrl === undefined ? undefined : parseUrl(apiUrl);
  return api !== undefined && target.origin === api.origin;
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
