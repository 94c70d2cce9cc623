import type { FakeUser } from './fake-github-user.js';

export interface IssueRecord {
  readonly id: number;
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
  readonly title: string;
  readonly isPullRequest: boolean;
  readonly user: FakeUser;
  readonly createdAt: number;
}

/** `issue` comments live on issues and PR conversations; `review` comments on a PR's diff. */
export type CommentKind = 'issue' | 'review';

export interface CommentRecord {
  readonly kind: CommentKind;
  readonly id: number;
  readonly issue: IssueRecord;
  body: string;
  readonly user: FakeUser;
  readonly authorAssociation: string;
  readonly createdAt: number;
  updatedAt: number;
}

export interface ReactionRecord {
  readonly id: number;
  readonly comment: CommentRecord;
  readonly content: string;
  readonly user: FakeUser;
  readonly createdAt: number;
}

export interface NewIssue {
  readonly number: number;
  readonly title: string;
  readonly isPullRequest?: boolean;
  readonly user?: FakeUser;
}

export interface NewComment {
  readonly body: string;
  readonly user: FakeUser;
  readonly id?: number;
  readonly createdAt?: string | Date;
  readonly authorAssociation?: string;
}

export type GithubStore = ReturnType<typeof createGithubStore>;
type RepoRecord = { owner: string; repo: string; issues: Map<number, IssueRecord> };
const repoKey = (owner: string, repo: string) => `${owner}/${repo}`.toLowerCase();

/** Repositories, their issues and PRs, comments and reactions. Names match case-insensitively. */
export function createGithubStore(now: () => number) {
  const repos = new Map<string, RepoRecord>();
  const comments = new Map<number, CommentRecord>();
  const reactions: ReactionRecord[] = [];
  let nextId = 1_000_001;
  const takeId = (wanted?: number) => {
    const id = wanted ?? nextId;
    if (comments.has(id)) throw new Error(`fake GitHub: comment id ${id} is taken`);
    nextId = Math.max(nextId, id + 1);
    return id;
  };

  function addRepo(owner: string, repo: string) {
    const key = repoKey(owner, repo);
    const found = repos.get(key) ?? { owner, repo, issues: new Map<number, IssueRecord>() };
    repos.set(key, found);
    return found;
  }

  function commentsOf(
    kind: CommentKind,
    owner: string,
    repo: string,
    number?: number,
  ): CommentRecord[] {
    const key = repoKey(owner, repo);
    return [...comments.values()].filter(
      (c) =>
        c.kind === kind &&
        repoKey(c.issue.owner, c.issue.repo) === key &&
        (number === undefined || c.issue.number === number),
    );
  }

  function findIssue(owner: string, repo: string, number: number): IssueRecord | undefined {
    return repos.get(repoKey(owner, repo))?.issues.get(number);
  }

  return {
    addRepo: (owner: string, repo: string): void => void addRepo(owner, repo),
    hasRepo: (owner: string, repo: string) => repos.has(repoKey(owner, repo)),
    addIssue(owner: string, repo: string, input: NewIssue): IssueRecord {
      const found = addRepo(owner, repo);
      const issue: IssueRecord = {
        id: takeId(),
        owner: found.owner,
        repo: found.repo,
        number: input.number,
        title: input.title,
        isPullRequest: input.isPullRequest ?? false,
        user: input.user ?? { login: found.owner },
        createdAt: now(),
      };
      found.issues.set(input.number, issue);
      return issue;
    },
    findIssue,
    addComment(kind: CommentKind, owner: string, repo: string, number: number, input: NewComment) {
      const issue = findIssue(owner, repo, number);
      if (issue === undefined || (kind === 'review' && !issue.isPullRequest)) {
        const what = kind === 'review' ? 'pull request' : 'issue';
        throw new Error(
          `fake GitHub: add ${what} ${owner}/${repo}#${number} before commenting on it`,
        );
      }
      const at = input.createdAt === undefined ? now() : new Date(input.createdAt).getTime();
      const isOwner = input.user.login.toLowerCase() === issue.owner.toLowerCase();
      const comment: CommentRecord = {
        kind,
        id: takeId(input.id),
        issue,
        body: input.body,
        user: input.user,
        authorAssociation: input.authorAssociation ?? (isOwner ? 'OWNER' : 'NONE'),
        createdAt: at,
        updatedAt: at,
      };
      comments.set(comment.id, comment);
      return comment;
    },
    findComment(kind: CommentKind, owner: string, repo: string, id: number) {
      const comment = comments.get(id);
      const key = comment && repoKey(comment.issue.owner, comment.issue.repo);
      return comment?.kind === kind && key === repoKey(owner, repo) ? comment : undefined;
    },
    /** Issue comments of a repository (or of one issue), oldest first. */
    issueComments(owner: string, repo: string, number?: number): CommentRecord[] {
      return commentsOf('issue', owner, repo, number);
    },
    /** Review comments of a repository (or of one pull request), oldest first. */
    reviewComments(owner: string, repo: string, number?: number): CommentRecord[] {
      return commentsOf('review', owner, repo, number);
    },
    editComment(comment: CommentRecord, body: string): void {
      comment.body = body;
      comment.updatedAt = Math.max(now(), comment.updatedAt);
    },
    /** GitHub answers 200 with the existing reaction when the same user reacts the same way twice. */
    react(comment: CommentRecord, content: string, user: FakeUser) {
      const existing = reactions.find(
        (r) => r.comment === comment && r.content === content && r.user.login === user.login,
      );
      if (existing !== undefined) return { reaction: existing, created: false };
      const reaction: ReactionRecord = { id: takeId(), comment, content, user, createdAt: now() };
      reactions.push(reaction);
      return { reaction, created: true };
    },
    reactionsOn: (comment: CommentRecord) => reactions.filter((r) => r.comment === comment),
    findCommentById: (id: number) => comments.get(id),
  };
}
