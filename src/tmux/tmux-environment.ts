/** Variables that hold the-loop's own credentials; sessions must never inherit them. */
export const secretVariables = [
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_CLIENT_SECRET',
  'SLACK_USER_TOKEN',
  'GITHUB_TOKEN',
  'GITHUB_WEBHOOK_SECRET',
  'THE_LOOP_API_TOKEN',
  'THE_LOOP_SESSION_TOKEN',
] as const;

/**
 * A credential of the-loop's: one of the named ones, or any Slack or GitHub variable whose name
 * says token or secret (`SLACK_API_URL` and `GITHUB_API_URL` are not secrets and stay).
 */
export function isSecretVariable(name: string): boolean {
  return (
    (secretVariables as readonly string[]).includes(name) ||
    /^(SLACK|GITHUB)_[A-Z0-9_]*(TOKEN|SECRET)[A-Z0-9_]*$/.test(name)
  );
}

/**
 * The environment tmux is run with. A tmux server copies the environment of the client that
 * starts it into every session it creates, so if `serve` starts the server, an agent would see
 * the bot's Slack and GitHub tokens, and — under `npm start` — npm's variables, in every session
 * of that server for as long as it runs. They are removed here, before tmux ever sees them.
 */
export function tmuxEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env };
  for (const name of Object.keys(clean)) {
    if (isSecretVariable(name) || name.startsWith('npm_')) delete clean[name];
  }
  return clean;
}
