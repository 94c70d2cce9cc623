import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { claudeCodeVersion } from './claude-code-install.js';

/** The API key the tier gives Claude Code; only the fake Messages API ever sees it. */
export const TEST_API_KEY = 'sk-ant-api03-the-loop-real-tier-test-key-0123456789abcdefXYZ';
/** A key Claude Code has not been told about: it asks whether to use it. */
export const UNAPPROVED_API_KEY = 'sk-ant-api03-the-loop-real-tier-other-key-9876543210fedcbaQRS';

/** Claude Code remembers an approved custom key by its last 20 characters. */
export const keyFingerprint = (key: string): string => key.slice(-20);

/**
 * Writes a scratch HOME's `~/.claude.json`: onboarding done, the test key approved, the given
 * folders trusted. A folder not listed is untrusted, so Claude Code shows its trust dialog there.
 */
export async function seedClaudeHome(options: {
  home: string;
  trusted: readonly string[];
  approvedKeys?: readonly string[];
}): Promise<void> {
  await mkdir(path.join(options.home, '.claude'), { recursive: true, mode: 0o700 });
  const projects = Object.fromEntries(
    options.trusted.map((folder) => [
      folder,
      {
        allowedTools: [],
        hasTrustDialogAccepted: true,
        hasCompletedProjectOnboarding: true,
        projectOnboardingSeenCount: 1,
        hasClaudeMdExternalIncludesApproved: false,
        hasClaudeMdExternalIncludesWarningShown: false,
      },
    ]),
  );
  const config = {
    numStartups: 1,
    installMethod: 'npm',
    autoUpdates: false,
    theme: 'dark',
    hasCompletedOnboarding: true,
    lastOnboardingVersion: claudeCodeVersion(),
    lastReleaseNotesSeen: claudeCodeVersion(),
    customApiKeyResponses: {
      approved: (options.approvedKeys ?? [TEST_API_KEY]).map(keyFingerprint),
      rejected: [],
    },
    projects,
  };
  await writeFile(path.join(options.home, '.claude.json'), `${JSON.stringify(config, null, 2)}\n`, {
    mode: 0o600,
  });
}

/** The environment Claude Code runs in: the fake API, the test key, no traffic beyond it. */
export function claudeEnv(options: {
  home: string;
  baseUrl: string;
  apiKey?: string;
}): Record<string, string> {
  return {
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: options.apiKey ?? TEST_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}
