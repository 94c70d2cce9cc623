import { execFileSync } from 'node:child_process';
import { compareVersions } from '../../src/harness/claude-versions.js';
import { permissionModeArgument } from '../../src/harness/claude-permission-mode.js';
import { claudeCodeBinary, claudeCodeVersion } from './claude-code-install.js';

/**
 * How the version under test shows and takes its start dialogs (docs/claude-code.md, the version
 * table). 2.1.197 numbers the options and preselects "Yes, I trust"; 2.1.332 lists
 * "❯ No, exit" first and preselected, unnumbered, so Enter alone would exit.
 */
export function startDialogFacts(version: string = claudeCodeVersion()): {
  readonly trustShown: readonly string[];
  readonly trustKeys: readonly string[];
  readonly apiKeyShown: string;
  readonly apiKeyApprove: readonly string[];
  readonly permissionNo: string;
  /**
   * How long to leave a dialog before a key, after it opened or took a paste: 2.1.332 dropped a
   * Down + Enter sent right after a paste onto its trust dialog, and a `1` sent soon after its
   * permission dialog opened; the same keys 1.5 s later worked. Nothing on the screen shows when
   * it listens again, so this is a pause, not a wait for an event (FINDINGS.md (h)).
   */
  readonly keyPauseMs: number;
} {
  if (compareVersions(version, '2.1.332') >= 0) {
    return {
      trustShown: ['❯ No, exit', 'Yes, I trust this folder'],
      trustKeys: ['Down', 'Enter'],
      apiKeyShown: '❯ No (recommended)',
      apiKeyApprove: ['Up', 'Enter'],
      permissionNo: 'Escape',
      keyPauseMs: 2_000,
    };
  }
  return {
    trustShown: ['❯ 1. Yes, I trust this folder'],
    trustKeys: ['Enter'],
    apiKeyShown: '❯ 2. No (recommended)',
    apiKeyApprove: ['1'],
    permissionNo: '3',
    keyPauseMs: 0,
  };
}

/**
 * What the version under test does with a prompt typed while a turn runs (test/real/FINDINGS.md
 * (h)). 2.1.197 fires its UserPromptSubmit only when it takes the prompt (after the plain turn's
 * Stop; never for one injected into a tool turn) and injects it as a system message; 2.1.332 fires
 * UserPromptSubmit as soon as the prompt is queued and injects it as a user text block.
 */
/** Waits the version's pause before a key goes into a dialog (keyPauseMs). */
export function dialogKeyPause(version: string = claudeCodeVersion()): Promise<void> {
  const ms = startDialogFacts(version).keyPauseMs;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function queueFacts(version: string = claudeCodeVersion()): {
  readonly submitWhenQueued: boolean;
  readonly injectedAs: 'system' | 'user';
} {
  if (compareVersions(version, '2.1.332') >= 0)
    return { submitWhenQueued: true, injectedAs: 'user' };
  return { submitWhenQueued: false, injectedAs: 'system' };
}

/** `--permission-mode` for "every call asks", as the binary under test names it (§23). */
export function askModeArgument(binary: string = claudeCodeBinary()): string {
  let help = '';
  try {
    help = execFileSync(binary, ['--help'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: {
        ...process.env,
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });
  } catch {
    // An unreadable help: the older name.
  }
  return permissionModeArgument('ask', help);
}
