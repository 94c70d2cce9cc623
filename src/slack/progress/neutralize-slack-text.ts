import { escapeMrkdwn } from '../text/escape-mrkdwn.js';

/**
 * Text an agent chose (a command, a path) shown in a status line: control characters become
 * spaces, `& < >` become entities (so `<!channel>`, `<@U…>` and `<url|label>` stay text), and a
 * zero-width space breaks `@here`-style words and `scheme://` so Slack neither notifies nor links.
 */
export function neutralizeSlackText(text: string): string {
  // eslint-disable-next-line no-control-regex -- replacing control characters is the point
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  return escapeMrkdwn(flat)
    .replace(/@(?=(?:channel|here|everyone)\b)/gi, '@\u200b')
    .replace(/:\/\//g, ':\u200b//');
}
