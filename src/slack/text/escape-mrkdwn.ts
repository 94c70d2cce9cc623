const entities: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Slack reads `<…>` as a link, mention or broadcast and `&…;` as an entity in every message text,
 * so these three characters must be sent as entities for a person to see them as typed.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (char) => entities[char] ?? char);
}
