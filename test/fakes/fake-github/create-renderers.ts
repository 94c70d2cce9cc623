import type {
  CommentRecord,
  GithubStore,
  IssueRecord,
  ReactionRecord,
} from './create-github-store.js';
import { fakeBot, isoSeconds, nodeId, renderUser, stableId } from './fake-github-user.js';

const reactionContents = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'];

export function isReactionContent(value: unknown): value is string {
  return typeof value === 'string' && reactionContents.includes(value);
}

export type Renderers = ReturnType<typeof createRenderers>;

/** The JSON GitHub's REST API returns for each stored object, with URLs pointing at the fake. */
export function createRenderers(apiUrl: string, store: GithubStore) {
  const repoApi = (issue: IssueRecord) => `${apiUrl}/repos/${issue.owner}/${issue.repo}`;
  const repoHtml = (issue: IssueRecord) => `https://github.com/${issue.owner}/${issue.repo}`;
  const issueHtml = (issue: IssueRecord) =>
    `${repoHtml(issue)}/${issue.isPullRequest ? 'pull' : 'issues'}/${issue.number}`;

  function reactionSummary(comment: CommentRecord) {
    const kinds = comment.kind === 'issue' ? 'issues' : 'pulls';
    const all = store.reactionsOn(comment);
    const counts = Object.fromEntries(
      reactionContents.map((content) => [content, all.filter((r) => r.content === content).length]),
    );
    const url = `${repoApi(comment.issue)}/${kinds}/comments/${comment.id}/reactions`;
    return { url, total_count: all.length, ...counts };
  }

  function comment(record: CommentRecord) {
    const { issue } = record;
    const shared = {
      id: record.id,
      node_id: nodeId(record.kind === 'issue' ? 'IC' : 'PRRC', record.id),
      user: renderUser(record.user, apiUrl),
      body: record.body,
      created_at: isoSeconds(record.createdAt),
      updated_at: isoSeconds(record.updatedAt),
      author_association: record.authorAssociation,
      reactions: reactionSummary(record),
    };
    if (record.kind === 'review') {
      return {
        url: `${repoApi(issue)}/pulls/comments/${record.id}`,
        html_url: `${issueHtml(issue)}#discussion_r${record.id}`,
        pull_request_url: `${repoApi(issue)}/pulls/${issue.number}`,
        ...shared,
      };
    }
    return {
      url: `${repoApi(issue)}/issues/comments/${record.id}`,
      html_url: `${issueHtml(issue)}#issuecomment-${record.id}`,
      issue_url: `${repoApi(issue)}/issues/${issue.number}`,
      ...shared,
      performed_via_github_app: null,
    };
  }

  function issue(record: IssueRecord) {
    const url = `${repoApi(record)}/issues/${record.number}`;
    const pullUrl = `${repoApi(record)}/pulls/${record.number}`;
    const html = issueHtml(record);
    return {
      url,
      repository_url: repoApi(record),
      comments_url: `${url}/comments`,
      html_url: html,
      id: record.id,
      node_id: nodeId(record.isPullRequest ? 'PR' : 'I', record.id),
      number: record.number,
      title: record.title,
      user: renderUser(record.user, apiUrl),
      labels: [],
      state: 'open',
      locked: false,
      assignees: [],
      comments: store.issueComments(record.owner, record.repo, record.number).length,
      created_at: isoSeconds(record.createdAt),
      updated_at: isoSeconds(record.createdAt),
      closed_at: null,
      author_association: 'OWNER',
      body: null,
      ...(record.isPullRequest && {
        pull_request: { url: pullUrl, html_url: html, diff_url: `${html}.diff`, merged_at: null },
      }),
    };
  }

  function pull(record: IssueRecord) {
    const { url: issueUrl, comments_url, pull_request: _issueOnly, ...common } = issue(record);
    const sha = (name: string) => stableId(name).toString(16).padStart(8, '0').repeat(5);
    return {
      ...common,
      url: `${repoApi(record)}/pulls/${record.number}`,
      issue_url: issueUrl,
      comments_url,
      review_comments_url: `${repoApi(record)}/pulls/${record.number}/comments`,
      draft: false,
      merged: false,
      head: {
        label: `${record.owner}:pr-${record.number}`,
        ref: `pr-${record.number}`,
        sha: sha(`${issueUrl}:head`),
      },
      base: { label: `${record.owner}:main`, ref: 'main', sha: sha(`${issueUrl}:base`) },
    };
  }

  function reaction(record: ReactionRecord) {
    return {
      id: record.id,
      node_id: nodeId('REA', record.id),
      user: renderUser(record.user, apiUrl),
      content: record.content,
      created_at: isoSeconds(record.createdAt),
    };
  }

  /** `GET /user` for the token: the bot account, with the profile fields a user object adds. */
  const bot = () => ({ ...renderUser(fakeBot, apiUrl), name: 'the-loop', bio: null });

  return { comment, issue, pull, reaction, bot };
}
