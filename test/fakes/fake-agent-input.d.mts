/** What one piece of terminal input means to the fake agent's prompt line. */
export type InputEffect =
  | { type: 'typed'; text: string }
  | { type: 'erase' }
  | { type: 'pasted'; length: number; newlines: number; text: string }
  | { type: 'submit'; text: string }
  /** An Enter read while a paste was still settling: lost, the text stays in the line. */
  | { type: 'absorbed-enter' }
  | { type: 'escape' }
  | { type: 'ctrl-c'; repeated: boolean };

export interface InputReader {
  /** What the input line holds. */
  current(): string;
  /** Replaces the input line (an interrupted prompt put back; Escape twice empties it). */
  setLine(text: string): void;
  /** Decodes more input (already UTF-8 decoded); an incomplete escape sequence waits for more. */
  feed(text: string): InputEffect[];
  /** True when a lone ESC is waiting: the caller flushes it after a short quiet time. */
  hasPending(): boolean;
  /** Settles a waiting ESC as the Escape key, as a TUI does after its escape timeout. */
  flush(): InputEffect[];
}

export function createInputReader(options?: {
  /** Quiet time after a paste before Enter submits (Claude Code: 100 ms); 0 = none. */
  pasteSettleMs?: number;
  now?: () => number;
}): InputReader;
