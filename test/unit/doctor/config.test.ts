import { describe, expect, it } from 'vitest';
import { checkConfig } from '../../../src/doctor/config.js';

describe('checkConfig', () => {
  it('a missing file fails and points at init', () => {
    const check = checkConfig({
      refused: {
        configPath: '/r/.the-loop/config.yaml',
        issues: [{ path: '', code: 'file_missing', message: 'there is no config file' }],
      },
    });
    expect(check).toMatchObject({ id: 'config', status: 'fail' });
    expect(check.remedy).toContain('the-loop init');
  });

  it('a refused file names each key', () => {
    const check = checkConfig({
      refused: {
        configPath: '/c.yaml',
        issues: [
          { path: 'slack.mode', code: 'invalid_value', message: 'use socket or http' },
          { path: 'tmux.sockt', code: 'unknown_key', message: 'did you mean tmux.socket?' },
        ],
      },
    });
    expect(check.status).toBe('fail');
    expect(check.message).toContain('slack.mode: use socket or http; tmux.sockt:');
  });
});
