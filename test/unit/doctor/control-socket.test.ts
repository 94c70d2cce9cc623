import { describe, expect, it } from 'vitest';
import { checkControlSocket } from '../../../src/doctor/control-socket.js';

describe('checkControlSocket', () => {
  it.each([
    [{ socketPath: '/s/control.sock', state: 'absent' as const }, 'warn', 'not running'],
    [{ socketPath: '/s/control.sock', state: 'silent' as const }, 'warn', 'nothing answers'],
    [
      { socketPath: '/s/control.sock', state: 'answering' as const, version: '0.1.0' },
      'ok',
      'answers',
    ],
    [
      { socketPath: '/s/control.sock', state: 'answering' as const, version: '0.0.9' },
      'warn',
      'serve 0.0.9 is running',
    ],
  ])('%j → %s', (facts, status, words) => {
    const check = checkControlSocket(facts, '0.1.0');
    expect(check.status).toBe(status);
    expect(check.message).toContain(words);
  });
});
