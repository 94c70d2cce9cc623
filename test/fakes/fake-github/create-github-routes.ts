import type { CommentKind, GithubStore } from './create-github-store.js';
import type { RateWindow } from './create-rate-window.js';
import { isReactionContent, type Renderers } from './create-renderers.js';
import { fakeBot } from './fake-github-user.js';
import { pageList, type Query } from './page-list.js';
import { selectComments } from './select-comments.js';

export interface RouteRequest {
  readonly url: URL;
  readonly query: Query;
  readonly body: unknown;
}

export interface FakeReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  handle(params: readonly string[], request: RouteRequest): FakeReply;
}

const docs = 'https://docs.github.com/rest';
export const notFound: FakeReply = {
  status: 404,
  body: { message: 'Not Found', documentation_url: docs },
};
const invalid = (message: string): FakeReply => ({
  status: 422,
  body: { message: 'Validation Failed', errors: [{ message }], documentation_url: docs },
});
const ok = (body: unknown, status = 200): FakeReply => ({ status, body });
const fieldOf = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;

const repo = '/repos/([^/]+)/([^/]+)';
const at = (pattern: string) => new RegExp(`^${pattern}$`);

/** The slice of GitHub's REST API the-loop uses, at the same paths and with the same statuses. */
export function createGithubRoutes(
  store: GithubStore,
  render: Renderers,
  rate: RateWindow,
): Route[] {
  const listComments =
    (kind: CommentKind) =>
    ([owner = '', name = '', number]: readonly string[], request: RouteRequest): FakeReply => {
      const issue = number === undefined ? undefined : store.findIssue(owner, name, Number(number));
      if (!store.hasRepo(owner, name) || (number !== undefined && issue === undefined))
        return notFound;
      const all =
        kind === 'issue'
          ? store.issueComments(owner, name, issue?.number)
          : store.reviewComments(owner, name, issue?.number);
      const selected = selectComments(all, request.query);
      if (!selected.ok) return invalid(selected.message);
      const page = pageList(selected.comments, request.url, request.query);
      if (!page.ok) return invalid(page.message);
      const headers: Record<string, string> = page.link === undefined ? {} : { link: page.link };
      return { status: 200, body: page.items.map(render.comment), headers };
    };

  function createComment(
    [owner = '', name = '', number = '']: readonly string[],
    request: RouteRequest,
  ) {
    if (store.findIssue(owner, name, Number(number)) === undefined) return notFound;
    const body = fieldOf(request.body, 'body');
    if (typeof body !== 'string' || body === '') return invalid('body is missing');
    const comment = render.comment(
      store.addComment('issue', owner, name, Number(number), { body, user: fakeBot }),
    );
    return { status: 201, body: comment, headers: { location: comment.url } };
  }

  function findIssueComment([owner = '', name = '', id = '']: readonly string[]) {
    return store.findComment('issue', owner, name, Number(id));
  }

  const react =
    (kind: CommentKind) =>
    ([owner = '', name = '', id = '']: readonly string[], request: RouteRequest): FakeReply => {
      const comment = store.findComment(kind, owner, name, Number(id));
      if (comment === undefined) return notFound;
      const content = fieldOf(request.body, 'content');
      if (!isReactionContent(content))
        return invalid(`content ${String(content)} is not a reaction`);
      const { reaction, created } = store.react(comment, content, fakeBot);
      return ok(render.reaction(reaction), created ? 201 : 200);
    };

  return [
    { method: 'GET', pattern: at(`${repo}/issues/comments`), handle: listComments('issue') },
    {
      method: 'GET',
      pattern: at(`${repo}/issues/(\\d+)/comments`),
      handle: listComments('issue'),
    },
    { method: 'GET', pattern: at(`${repo}/pulls/comments`), handle: listComments('review') },
    { method: 'POST', pattern: at(`${repo}/issues/(\\d+)/comments`), handle: createComment },
    {
      method: 'GET',
      pattern: at(`${repo}/issues/comments/(\\d+)`),
      handle: (params) => {
        const comment = findIssueComment(params);
        return comment === undefined ? notFound : ok(render.comment(comment));
      },
    },
    {
      method: 'PATCH',
      pattern: at(`${repo}/issues/comments/(\\d+)`),
      handle: (params, request) => {
        const comment = findIssueComment(params);
        if (comment === undefined) return notFound;
        const body = fieldOf(request.body, 'body');
        if (typeof body !== 'string' || body === '') return invalid('body is missing');
        store.editComment(comment, body);
        return ok(render.comment(comment));
      },
    },
    {
      method: 'POST',
      pattern: at(`${repo}/issues/comments/(\\d+)/reactions`),
      handle: react('issue'),
    },
    {
      method: 'POST',
      pattern: at(`${repo}/pulls/comments/(\\d+)/reactions`),
      handle: react('review'),
    },
    {
      method: 'GET',
      pattern: at(`${repo}/issues/(\\d+)`),
      handle: ([owner = '', name = '', number = '']) => {
        const issue = store.findIssue(owner, name, Number(number));
        return issue === undefined ? notFound : ok(render.issue(issue));
      },
    },
    {
      method: 'GET',
      pattern: at(`${repo}/pulls/(\\d+)`),
      handle: ([owner = '', name = '', number = '']) => {
        const issue = store.findIssue(owner, name, Number(number));
        return issue?.isPullRequest === true ? ok(render.pull(issue)) : notFound;
      },
    },
    { method: 'GET', pattern: at('/user'), handle: () => ok(render.bot()) },
    {
      method: 'GET',
      pattern: at(repo),
      handle: ([owner = '', name = '']) =>
        store.hasRepo(owner, name)
          ? ok({
              name,
              full_name: `${owner}/${name}`,
              owner: { login: owner },
              private: false,
              permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
            })
          : notFound,
    },
    {
      method: 'GET',
      pattern: at('/rate_limit'),
      handle: () => {
        const core = rate.snapshot();
        return ok({ resources: { core }, rate: core });
      },
    },
  ];
}
