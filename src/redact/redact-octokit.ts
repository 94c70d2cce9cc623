import type { Octokit } from '@octokit/rest';
import type { Redactor } from './redact-text.js';

/**
 * Puts the one redactor (docs/design.md §18) on every request Octokit sends: the text of a
 * comment created or edited (`body`) and of anything with a `title`, whatever wrote it — an agent's
 * reply, a fenced file, a permission request with `github.permissions: full`.
 */
export function redactOctokit(octokit: Octokit, redactor: Redactor): void {
  octokit.hook.before('request', (options) => {
    for (const field of ['body', 'title'] as const) {
      const text: unknown = options[field];
      if (typeof text === 'string') options[field] = redactor.text(text);
    }
  });
}
