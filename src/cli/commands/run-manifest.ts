import { stringify } from 'yaml';
import { buildSlackManifest } from '../../slack/build-slack-manifest.js';
import type { CommandHandler } from '../command-context.js';

/** `the-loop manifest`: YAML to paste into "Create New App → From a manifest" (or JSON). */
export const runManifest: CommandHandler = async (context) => {
  const config = await context.loadConfig();
  const manifest = buildSlackManifest(config);
  if (context.json) {
    context.printJson(manifest);
    return 0;
  }
  const who = config.instance.name === '' ? 'this instance' : `instance ${config.instance.name}`;
  context.print(
    `# Slack app manifest for ${who}.\n` +
      '# Create the app at https://api.slack.com/apps → Create New App → From a manifest, then set\n' +
      '# SLACK_BOT_TOKEN (xoxb-…) and an app-level SLACK_APP_TOKEN (xapp-…, scope connections:write).\n' +
      stringify(manifest, { lineWidth: 0 }).trimEnd(),
  );
  return 0;
};
