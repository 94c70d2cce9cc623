// @ts-check

/**
 * @typedef {{ answer: Promise<Record<string, unknown> | undefined>, cancel: () => void }} HookAsk
 * @typedef {{ ask: (event: string, payload: Record<string, unknown>, matchValue?: string) => HookAsk }} AskingHooks
 * @typedef {{ tool: string, arg: string }} ToolCall
 * @typedef {{ behavior: 'allow' | 'deny' | 'none' | 'terminal', message?: string,
 *   updatedPermissions?: unknown[], key?: string }} ToolAnswer
 * @typedef {{ hooks: AskingHooks, base: Record<string, unknown>,
 *   record: (event: string, fields: Record<string, unknown>) => void,
 *   say: (text: string) => void,
 *   openDialog: (onKey: ((key: string) => void) | undefined) => void }} ToolOptions
 */

/**
 * Scripted tool calls that need approval, as Claude Code makes them: a prompt line
 * `FAKE:tool <Tool> <argument>` asks through the PermissionRequest hook (with
 * `permission_suggestions` when the prompt has a line `FAKE:suggest`) while the fake's own dialog
 * is on screen. The hook's JSON answer decides; a key typed meanwhile answers the dialog in the
 * terminal while the hook runs on unheard, as in the real client. With a line `FAKE:parallel` the calls ask
 * at the same time (subagents), otherwise one after another. Each outcome is recorded as a
 * `permission_answer` event and returned for the turn's final answer.
 *
 * @param {string} prompt
 * @param {ToolOptions} options
 * @returns {Promise<string[]>}
 */
export async function runToolCalls(prompt, options) {
  const lines = prompt.split('\n').map((line) => line.trim());
  /** @type {ToolCall[]} */
  const calls = lines.flatMap((line) => {
    const match = /^FAKE:tool (\S+) (.+)$/.exec(line);
    return match ? [{ tool: match[1] ?? '', arg: match[2] ?? '' }] : [];
  });
  const suggest = lines.includes('FAKE:suggest');
  const ask = (/** @type {ToolCall} */ call) => askOne(call, suggest, options);
  if (lines.includes('FAKE:parallel')) return Promise.all(calls.map(ask));
  /** @type {string[]} */
  const results = [];
  for (const call of calls) results.push(await ask(call));
  return results;
}

/**
 * @param {ToolCall} call
 * @param {boolean} suggest
 * @param {ToolOptions} options
 * @returns {Promise<string>}
 */
async function askOne(call, suggest, options) {
  const toolInput =
    call.tool === 'Bash'
      ? { command: call.arg, description: 'a scripted command' }
      : { file_path: call.arg, content: 'scripted content' };
  const suggestions = [
    {
      type: 'addRules',
      rules: [{ toolName: call.tool, ruleContent: `${call.arg.split(' ')[0] ?? ''} *` }],
      behavior: 'allow',
      destination: 'localSettings',
    },
  ];
  const payload = {
    ...options.base,
    hook_event_name: 'PermissionRequest',
    permission_mode: 'default',
    tool_name: call.tool,
    tool_input: toolInput,
    ...(suggest ? { permission_suggestions: suggestions } : {}),
  };
  const asking = options.hooks.ask('PermissionRequest', payload, call.tool);
  /** @type {string | undefined} */
  let key;
  // A key answers the dialog at once, and the hook runs on: Claude Code 2.1 does not kill it and
  // ignores its late answer (test/real/FINDINGS.md (g)).
  const terminal = new Promise((resolve) => {
    options.openDialog((typed) => {
      key = typed;
      resolve(undefined);
    });
  });
  // The dialog takes the input box's place at the bottom of the screen until it is answered.
  options.say(`${call.tool}(${call.arg})\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   3. No`);
  const output = await Promise.race([asking.answer, terminal]);
  options.openDialog(undefined);
  /** @type {ToolAnswer} */
  const answer = key !== undefined ? { behavior: 'terminal', key } : readDecision(output);
  options.record('permission_answer', { tool: call.tool, arg: call.arg, ...answer });
  const outcome =
    answer.behavior === 'allow'
      ? `ran ${call.tool} ${call.arg}`
      : answer.behavior === 'deny'
        ? `${call.tool} denied: ${answer.message ?? ''}`
        : `${call.tool} answered in the terminal`;
  options.say(`  ⎿  ${outcome}`);
  return outcome;
}

/**
 * @param {Record<string, unknown> | undefined} output
 * @returns {ToolAnswer}
 */
function readDecision(output) {
  const specific = output?.hookSpecificOutput;
  const decision =
    typeof specific === 'object' && specific !== null && 'decision' in specific
      ? /** @type {Record<string, unknown>} */ (specific.decision)
      : undefined;
  if (decision?.behavior === 'allow') {
    return {
      behavior: 'allow',
      ...(Array.isArray(decision.updatedPermissions)
        ? { updatedPermissions: decision.updatedPermissions }
        : {}),
    };
  }
  if (decision?.behavior === 'deny') {
    return {
      behavior: 'deny',
      ...(typeof decision.message === 'string' ? { message: decision.message } : {}),
    };
  }
  return { behavior: 'none' };
}
