import type { Config } from '../config/types.js';
import { fenceTextFile } from '../replies/fence-text-file.js';
import type { ReplySink } from '../replies/reply-router.js';
import { parseWorkItemRef, workItemRef } from '../refs.js';
import type { GithubResponder } from './create-github-responder.js';

/** An agent's words as a comment on its issue or pull request, with the hidden marker (docs/design.md §8). */
export function createGithubPoster(options: {
  readonly config: Config;
  readonly actions: GithubResponder;
}): ReplySink {
  const configured = (ref: string) => {
    const item = parseWorkItemRef(ref);
    if (!item) return undefined;
    const full = `${item.owner}/${item.repo}`.toLowerCase();
    return options.config.github.repos.some((entry) => entry.repo.toLowerCase() === full)
      ? item
      : undefined;
  };
  return {
    surface: 'github',
    async accepts(ref) {
      return configured(ref) !== undefined;
    },
    async post(ref, text, _kind, files = []) {
      const item = configured(ref);
      if (!item) throw new Error(`no GitHub repository configured for ${ref}`);
      // Files ride in the comment as fenced text; one that cannot is refused before anything posts.
      const blocks = files.map(fenceTextFile);
      await options.actions.comment(
        item,
        [text.trim() === '' ? '' : text, ...blocks].filter((part) => part !== '').join('\n\n'),
      );
      return { surface: 'github', location: workItemRef(item) };
    },
  };
}
