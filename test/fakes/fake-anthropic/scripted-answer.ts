/**
 * What the fake Messages API answers to one main-turn request. A test scripts a queue of these; a
 * `tool_use` answer makes Claude Code ask for permission (Bash, Write) before it runs the tool.
 */
export type ScriptedAnswer =
  | {
      readonly kind: 'text';
      readonly text: string;
      /** Milliseconds between `message_start` and the first text, so the turn shows as busy. */
      readonly delayMs?: number;
      /** Held until this settles (a slow turn the test ends when it wants). */
      readonly until?: Promise<unknown>;
    }
  | {
      readonly kind: 'tool_use';
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** Text streamed before the tool call, as the model often does. */
      readonly preamble?: string;
      readonly delayMs?: number;
      readonly until?: Promise<unknown>;
    };

export const text = (value: string, options: { delayMs?: number; until?: Promise<unknown> } = {}) =>
  ({ kind: 'text', text: value, ...options }) as const satisfies ScriptedAnswer;

export const toolUse = (
  name: string,
  input: Record<string, unknown>,
  options: { preamble?: string; delayMs?: number; until?: Promise<unknown> } = {},
) => ({ kind: 'tool_use', name, input, ...options }) as const satisfies ScriptedAnswer;
