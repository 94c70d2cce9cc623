/** Display names for ids, as a caller found them (users.info, conversations.info). */
export interface SlackNames {
  readonly users?: Readonly<Record<string, string>>;
  readonly channels?: Readonly<Record<string, string>>;
}

const entityNames: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>' };

// Slack sends a literal `<` as `&lt;`, so every raw `<…>` in a message text is a control sequence.
const controlPattern = /<([^<>]*)>/g;
const userIdPattern = /^[UW][A-Z0-9]+$/;
const broadcasts: ReadonlySet<string> = new Set(['here', 'channel', 'everyone']);

/**
 * Slack message text as the person meant it: mentions, channels, broadcasts and links become plain
 * text (docs/design.md §4 step 3). Entities are decoded in one pass after the `<…>` sequences are read, so
 * an escaped `&lt;@U1&gt;` stays the text `<@U1>` and `&amp;lt;` stays `&lt;`.
 */
export function decodeSlackText(text: string, names: SlackNames = {}): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(controlPattern)) {
    out += decodeEntities(text.slice(last, match.index));
    out += decodeControl(match[1] ?? '', names);
    last = match.index + match[0].length;
  }
  return out + decodeEntities(text.slice(last));
}

/** The user ids (`U…`, `W…`) mentioned in a message, once each in order, to look up names first. */
export function mentionedUserIds(text: string): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(controlPattern)) {
    const body = match[1] ?? '';
    if (!body.startsWith('@')) continue;
    const id = splitLabel(body.slice(1)).value;
    if (userIdPattern.test(id)) ids.add(id);
  }
  return [...ids];
}

function decodeControl(body: string, names: SlackNames): string {
  const { value, label } = splitLabel(body);
  if (value.startsWith('@')) {
    const id = value.slice(1);
    return `@${label ?? lookUp(names.users, id) ?? id}`;
  }
  if (value.startsWith('#')) {
    const id = value.slice(1);
    return `#${label ?? lookUp(names.channels, id) ?? id}`;
  }
  if (value.startsWith('!')) return decodeSpecial(value.slice(1), label);
  return decodeLink(value, label);
}

/** `<!here>`, `<!subteam^S1|@team>`, `<!date^…|fallback>` and the like. */
function decodeSpecial(value: string, label: string | undefined): string {
  const [kind = '', id = ''] = value.split('^');
  if (broadcasts.has(kind)) return `@${kind}`;
  if (kind === 'subteam') {
    if (label === undefined) return `@${id}`;
    return label.startsWith('@') ? label : `@${label}`;
  }
  return label ?? `@${kind}`;
}

function decodeLink(value: string, label: string | undefined): string {
  const url = decodeEntities(value);
  const shown = url.startsWith('mailto:') ? url.slice('mailto:'.length) : url;
  if (label === undefined || label === url || label === shown) return shown;
  return `${label} (${shown})`;
}

function splitLabel(body: string): { value: string; label: string | undefined } {
  const bar = body.indexOf('|');
  // Slack sends `<#C1|>` when it has no name to give; an empty label means none.
  if (bar < 0 || bar === body.length - 1)
    return { value: bar < 0 ? body : body.slice(0, bar), label: undefined };
  return { value: body.slice(0, bar), label: decodeEntities(body.slice(bar + 1)) };
}

function lookUp(map: Readonly<Record<string, string>> | undefined, id: string): string | undefined {
  return map !== undefined && Object.hasOwn(map, id) ? map[id] : undefined;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (entity, name: string) => entityNames[name] ?? entity);
}
