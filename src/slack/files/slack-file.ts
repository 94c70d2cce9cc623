/** A file attached to a thread reply, as recorded in the inbox: what fetching it needs. */
export interface SlackFile {
  readonly id: string;
  readonly name: string;
  /** As Slack reported it; undefined when it did not say. */
  readonly size?: number;
  /** Undefined for files Slack gives no download of (external, hidden by plan limits). */
  readonly url?: string;
}

/** The files of a `file_share` message event, or none; anything malformed is left out. */
export function readSlackFiles(value: unknown): SlackFile[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown): SlackFile[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const file = entry as Record<string, unknown>;
    if (typeof file['id'] !== 'string') return [];
    const name =
      typeof file['name'] === 'string' && file['name'] !== ''
        ? file['name']
        : typeof file['title'] === 'string'
          ? file['title']
          : file['id'];
    const size = typeof file['size'] === 'number' ? file['size'] : undefined;
    const url =
      typeof file['url_private_download'] === 'string' ? file['url_private_download'] : undefined;
    return [
      {
        id: file['id'],
        name,
        ...(size === undefined ? {} : { size }),
        ...(url === undefined || file['mode'] === 'tombstone' ? {} : { url }),
      },
    ];
  });
}

export function isSlackFile(value: unknown): value is SlackFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return (
    typeof file['id'] === 'string' &&
    typeof file['name'] === 'string' &&
    (file['size'] === undefined || typeof file['size'] === 'number') &&
    (file['url'] === undefined || typeof file['url'] === 'string')
  );
}
