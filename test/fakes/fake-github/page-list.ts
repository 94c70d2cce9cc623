export type Query = Readonly<Record<string, string>>;

export type Paged<T> =
  | { readonly ok: true; readonly items: T[]; readonly link: string | undefined }
  | { readonly ok: false; readonly message: string };

const defaultPerPage = 30;
const maxPerPage = 100;

function positiveInt(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  return /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/**
 * One page of `items` as GitHub serves lists: `per_page` (default 30, at most 100) and `page`, with
 * a `Link` header naming next/last and first/prev pages by absolute URL, the way Octokit's
 * `paginate` follows them. A page past the end is an empty list, as on GitHub.
 */
export function pageList<T>(items: readonly T[], pageUrl: URL, query: Query): Paged<T> {
  const perPage = positiveInt(query['per_page'], defaultPerPage);
  const page = positiveInt(query['page'], 1);
  if (perPage === undefined || page === undefined) {
    return { ok: false, message: 'Invalid value for page or per_page' };
  }
  const size = Math.min(perPage, maxPerPage);
  const lastPage = Math.max(1, Math.ceil(items.length / size));
  const urlOf = (n: number) => {
    const url = new URL(pageUrl);
    url.searchParams.set('page', String(n));
    return url.href;
  };
  const relations: string[] = [];
  if (page > 1) relations.push(`<${urlOf(page - 1)}>; rel="prev"`);
  if (page < lastPage) relations.push(`<${urlOf(page + 1)}>; rel="next"`);
  if (page < lastPage) relations.push(`<${urlOf(lastPage)}>; rel="last"`);
  if (page > 1) relations.push(`<${urlOf(1)}>; rel="first"`);
  return {
    ok: true,
    items: items.slice((page - 1) * size, page * size),
    link: relations.length > 0 ? relations.join(', ') : undefined,
  };
}
