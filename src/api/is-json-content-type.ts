/** `application/json`, any `+json` type, with or without parameters such as `charset`. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const mediaType = (header.split(';')[0] ?? '').trim().toLowerCase();
  return (
    mediaType === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(mediaType)
  );
}
