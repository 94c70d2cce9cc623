/** Variables that hold the-loop's own credentials; sessions must never inherit them. */
export const secretVariables = [
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'GITHUB_TOKEN',
  'GITHUB_WEBHOOK_SECRET',
  'THE_LOOP_API_TOKEN',
  'THE_LOOP_SESSION_TOKEN',
] as const;

/**
 * The environment tmux is run with. A tmux server copies the environment of the client that
 * starts it into every session it creates, so if `serve` starts the server, an agent would see
 * the bot's Slack and GitHub tokens. They are removed here, before tmux ever sees them.
 */
export function tmuxEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env };
  for (const name of secretVariables) delete clean[name];
  return clean;
}
