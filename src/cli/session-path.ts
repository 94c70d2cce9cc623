/** The API path of one standing session, or of one of its verbs. Names are validated before. */
export function sessionPath(name: string | undefined, verb?: string): string {
  const base = `/api/v1/standing-sessions/${encodeURIComponent(name ?? '')}`;
  return verb === undefined ? base : `${base}/${verb}`;
}
