import { Octokit } from '@octokit/rest';
import type { FakeGithub } from '../../fakes/fake-github/start-fake-github.js';

const ignore = (): void => undefined;

/**
 * A real Octokit aimed at the fake GitHub, built as createGithubSurface builds its own: no
 * Octokit-level retries (callGithub does them) and no console logging.
 */
export function surfaceOctokit(github: FakeGithub): Octokit {
  return new Octokit({
    auth: github.token,
    baseUrl: github.apiUrl,
    userAgent: 'the-loop',
    log: { debug: ignore, info: ignore, warn: ignore, error: ignore },
    request: { retries: 0 },
  });
}
