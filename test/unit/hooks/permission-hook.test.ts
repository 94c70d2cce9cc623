import { describe, expect, it } from 'vitest';
import { readPermissionRequest } from '../../../src/hooks/permission-hook.js';

describe('readPermissionRequest', () => {
  it.each([
    [
      { tool_name: 'Bash', tool_input: { command: 'ls' }, permission_suggestions: [{ type: 'x' }] },
      { tool: 'Bash', toolInput: { command: 'ls' }, suggestions: [{ type: 'x' }] },
    ],
    [{}, { tool: 'unknown', toolInput: {}, suggestions: [] }],
    [
      { tool_name: '<!channel>', permission_suggestions: 'nope' },
      { tool: 'unknown', toolInput: {}, suggestions: [] },
    ],
    [
      { tool_name: 'mcp__db__query', permission_suggestions: [1, null, { type: 'y' }] },
      { tool: 'mcp__db__query', toolInput: {}, suggestions: [{ type: 'y' }] },
    ],
  ])('%j', (payload, expected) => {
    expect(readPermissionRequest(payload)).toEqual(expected);
  });
});
