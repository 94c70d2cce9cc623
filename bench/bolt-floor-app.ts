import { App, LogLevel } from '@slack/bolt';

/**
 * The bare Bolt app of the ack floor (bolt-floor.ts), run as its own process as serve is: it acks
 * every envelope on receipt and does nothing else. Its tokens and the fake Slack's URL come from
 * the environment; it prints `ready` once its socket is open and stops on SIGTERM.
 */
const env = process.env;
const app = new App({
  token: env['SLACK_BOT_TOKEN'] ?? '',
  appToken: env['SLACK_APP_TOKEN'] ?? '',
  socketMode: true,
  logLevel: LogLevel.ERROR,
  clientOptions: { slackApiUrl: env['SLACK_API_URL'] ?? '' },
});
app.message(async () => undefined);
await app.start();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void app.stop().finally(() => process.exit(0));
});
