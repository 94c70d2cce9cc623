/**
 * What Claude Code's screen shows, as far as typing into it goes (measured on 2.1.197, see
 * docs/claude-code.md). Hooks say most of it; the screen answers what no hook tells: whether a
 * dialog is open, and what sits in the input box before a paste and before an Enter.
 */
export interface AgentScreen {
  /** The input box's text; undefined when no input box shows (a dialog has the screen). */
  readonly box: string | undefined;
  /** A dialog that takes every key (Enter picks its highlighted option). */
  readonly dialog?: 'permission' | 'trust' | 'api-key' | 'menu';
  /** A turn runs (the spinner line, or `esc to interrupt` in the footer). */
  readonly busy: boolean;
  /** Messages wait above the box for the running turn to end. */
  readonly queued: boolean;
}

export type ScreenReader = (capture: string) => AgentScreen;

/** Only the input box's own prompt sign is followed by a no-break space. */
const boxLine = /^❯\u00a0(.*)$/;
const rule = /^─{20,}\s*$/;
const queuedPlaceholder = 'Press up to edit queued messages';
const spinner = /^[·✢✳✶✻✽*] \S.*…/;

const dialogs: ReadonlyArray<readonly [NonNullable<AgentScreen['dialog']>, RegExp]> = [
  ['permission', /^\s*Do you want to (proceed|make this edit|create|allow)/m],
  ['trust', /Is this a project you created or one you trust\?/],
  ['api-key', /Detected a custom API key in your environment/],
  ['menu', /^\s*Enter to continue · Esc to cancel\s*$/m],
];

export function readClaudeScreen(capture: string): AgentScreen {
  // Not \s: it would take the no-break space that marks an empty box on the last line.
  const lines = capture.replace(/[ \t\r\n]+$/, '').split('\n');
  const boxAt = lastIndex(lines, (line) => boxLine.test(line));
  const box = boxAt < 0 ? undefined : boxText(lines, boxAt);
  const above = boxAt < 0 ? lines : lines.slice(0, boxAt);
  const footer = boxAt < 0 ? '' : lines.slice(boxAt + 1).join('\n');
  // A dialog replaces the box at the bottom of the screen; old dialogs scroll away above it.
  const bottom = boxAt < 0 ? lines.slice(-24).join('\n') : '';
  const dialog = dialogs.find(([, pattern]) => pattern.test(bottom))?.[0];
  const queued = box === queuedPlaceholder;
  return {
    box: queued ? '' : box,
    ...(dialog ? { dialog } : {}),
    busy: above.slice(-12).some((line) => spinner.test(line)) || /esc to interrupt/.test(footer),
    queued,
  };
}

function boxText(lines: readonly string[], at: number): string {
  const first = boxLine.exec(lines[at] ?? '')?.[1] ?? '';
  const rest: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (rule.test(line)) break;
    rest.push(line.startsWith('  ') ? line.slice(2) : line);
  }
  return [first, ...rest].join('\n').replace(/[ \t\r\n]+$/, '');
}

function lastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    if (test(items[index] as T)) return index;
  }
  return -1;
}

/**
 * Whether the box holds the paste of the delivery tagged `tag`: its header inline, or the
 * placeholder Claude Code shows for a long paste (more than ~800 characters or 3+ newlines).
 */
export function boxHoldsPaste(screen: AgentScreen, tag: string): boolean {
  const box = screen.box ?? '';
  return box.includes(`· ${tag}]`) || /\[Pasted text #\d+( \+\d+ lines)?\]/.test(box);
}

/**
 * A screen the-loop cannot read (docs/design.md §13, §23): something is drawn, but neither the
 * input box nor a dialog the-loop knows. Nothing is ever typed into such a screen.
 */
export function isUnreadable(capture: string, screen: AgentScreen): boolean {
  return screen.box === undefined && screen.dialog === undefined && capture.trim() !== '';
}

/**
 * The first lines of what the bottom of the screen shows (rules and blank lines left out), to
 * quote to the people who must answer it.
 */
export function screenHead(capture: string, count = 4): readonly string[] {
  return capture
    .replace(/[ \t\r\n]+$/, '')
    .split('\n')
    .slice(-24)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^[─━-]{10,}$/.test(line))
    .slice(0, count)
    .map((line) => line.slice(0, 120));
}
