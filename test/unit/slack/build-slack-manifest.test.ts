import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load-config.js';
import { parseConfigYaml } from '../../../src/config/parse-config-yaml.js';
import { buildSlackManifest } from '../../../src/slack/build-slack-manifest.js';

const config = (yaml: string) =>
  resolveConfig(
    parseConfigYaml(yaml, '/repo/.the-loop/config.yaml'),
    '/repo/.the-loop/config.yaml',
    {
      home: '/home/x',
    },
  );

describe('buildSlackManifest', () => {
  it('names the app the-loop for an unnamed instance, with the default slash command', () => {
    const manifest = buildSlackManifest(config(''));
    expect(manifest.display_information.name).toBe('the-loop');
    expect(manifest.features.slash_commands.map((command) => command.command)).toEqual(['/loop']);
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.oauth_config.scopes.bot).toEqual([
      'chat:write',
      'reactions:write',
      'channels:history',
      'groups:history',
      'im:history',
      'app_mentions:read',
      'commands',
      'users:read',
      'channels:read',
      'groups:read',
      'files:read',
      'files:write',
    ]);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual([
      'message.channels',
      'message.groups',
      'message.im',
      'app_mention',
    ]);
  });

  it('names the app and its command after the instance', () => {
    const manifest = buildSlackManifest(
      config('instance: { name: laptop-b }\nslack: { command: /loop-b }\n'),
    );
    expect(manifest.display_information.name).toBe('the-loop-laptop-b');
    expect(manifest.features.bot_user.display_name).toBe('the-loop-laptop-b');
    expect(manifest.features.slash_commands[0]?.command).toBe('/loop-b');
  });

  it('keeps the app name within the 35 characters Slack allows, without a trailing hyphen', () => {
    const name = 'abcdefghijklmnopqrstuvwxy-bcdefghijklmn';
    const manifest = buildSlackManifest(config(`instance: { name: ${name} }\n`));
    expect(manifest.display_information.name).toBe('the-loop-abcdefghijklmnopqrstuvwxy');
    expect(manifest.features.bot_user.display_name).toBe(`the-loop-${name}`);
  });
});

describe('manifest.yml at the repository root', () => {
  it('is the manifest `the-loop manifest` prints for the default instance', async () => {
    const { readFile } = await import('node:fs/promises');
    const { parse } = await import('yaml');
    const { loadConfig } = await import('../../../src/config/load-config.js');
    const defaults = await loadConfig('.the-loop/config.yaml');
    expect(parse(await readFile('manifest.yml', 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(buildSlackManifest(defaults))),
    );
  });
});
