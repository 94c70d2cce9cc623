import { Octokit } from '@octokit/rest';

const ignore = (): void => undefined;

/**
 * The real Octokit aimed at the fake; request-log reports every failed request on console, which
 * would bury the test output, since these tests fail requests on purpose.
 */
export function quietOctokit(baseUrl: string, auth?: string): Octokit {
  const log = { debug: ignore, info: ignore, warn: ignore, error: ignore };
  return new Octokit({ baseUrl, log, ...(auth !== undefined && { auth }) });
}
