import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../../../src/api/to-error-response.js';
import { LoopError } from '../../../src/errors.js';

describe('toErrorResponse', () => {
  const loopErrors: [LoopError, number][] = [
    [new LoopError('name_taken', 'sup exists: pick another name'), 409],
    [new LoopError('session_not_running', 'sup is stopped: `the-loop standing start sup`'), 404],
    [new LoopError('bad_request', 'text is required'), 400],
    [new LoopError('unauthorized', 'wrong token'), 401],
    [new LoopError('payload_too_large', 'too big'), 413],
    [new LoopError('tmux_unavailable', 'install tmux'), 503],
    [new LoopError('internal', 'state root unreadable: fix its permissions'), 500],
  ];
  it.each(loopErrors)('keeps the status, code and message of %s', (error, status) => {
    expect(toErrorResponse(error, 'req-1')).toEqual({
      status,
      body: { error: error.message, code: error.code },
      expected: true,
    });
  });

  const others: unknown[] = [
    new Error('ENOENT: /home/ana/.secret/path'),
    new TypeError('x is undefined'),
    'a string',
    undefined,
    { code: 'name_taken', message: 'looks like a LoopError but is not' },
  ];
  it.each(others)('hides the text of %j behind a generic 500 naming the request', (thrown) => {
    const response = toErrorResponse(thrown, 'req-42');
    expect(response).toMatchObject({ status: 500, expected: false, body: { code: 'internal' } });
    expect(response.body.error).toContain('req-42');
    expect(response.body.error).not.toMatch(/secret|undefined|looks like/);
  });
});
