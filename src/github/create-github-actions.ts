import type { Octokit } from '@octokit/rest';
import type { Logger } from '../log/create-logger.js';
import type { WorkItemRef } from '../refs.js';
import { callGithub } from './call-github.js';
import type { GithubComment } from './github-comment.js';
import { hiddenMarker } from './github-comment.js';

/** The few things the-loop does on GitHub, each retried and each carrying the hidden marker. */
export interface GithubActions {
  react(comment: GithubComment, content: 'eyes' | 'rocket' | 'confused'): Promise<void>;
  comment(item: WorkItemRef, text: string): Promise<{ id: number; url: string }>;
  /** Replaces the text of a comment the-loop posted (the marker is added again). */
  editComment(item: WorkItemRef, commentId: number, text: string): Promise<void>;
}

export function createGithubActions(options: {
  readonly octokit: Octokit;
  readonly instance: string;
  readonly logger: Logger;
}): GithubActions {
  const { octokit, logger } = options;
  return {
    async react(comment, content) {
      const { owner, repo } = comment.item;
      // Reviews have no reactions API; the review itself stays unmarked.
      if (comment.kind === 'review') return;
      await callGithub(
        'reaction',
        () =>
          comment.kind === 'issue_comment'
            ? octokit.reactions.createForIssueComment({
                owner,
                repo,
                comment_id: comment.commentId,
                content,
              })
            : octokit.reactions.createForPullRequestReviewComment({
                owner,
                repo,
                comment_id: comment.commentId,
                content,
              }),
        { logger },
      );
    },
    async comment(item, text) {
      const response = await callGithub(
        'comment',
        () =>
          octokit.issues.createComment({
            owner: item.owner,
            repo: item.repo,
            issue_number: item.number,
            body: `${text}\n\n${hiddenMarker(options.instance)}`,
          }),
        { logger },
      );
      return { id: response.data.id, url: response.data.html_url };
    },
    async editComment(item, commentId, text) {
      await callGithub(
        'comment',
        () =>
          octokit.issues.updateComment({
            owner: item.owner,
            repo: item.repo,
            comment_id: commentId,
            body: `${text}\n\n${hiddenMarker(options.instance)}`,
          }),
        { logger },
      );
    },
  };
}
