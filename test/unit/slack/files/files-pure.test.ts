import { mkdtemp, mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFileLine, withFileLines } from '../../../../src/slack/files/format-file-lines.js';
import { mayCarryBotToken } from '../../../../src/slack/files/may-carry-bot-token.js';
import { readSlackFiles } from '../../../../src/slack/files/slack-file.js';
import {
  displayFileName,
  sanitizeFileName,
  storedFileNames,
} from '../../../../src/slack/files/stored-file-names.js';
import {
  removeSessionFiles,
  sweepSessionFiles,
} from '../../../../src/slack/files/sweep-session-files.js';
import { toInboxMessage } from '../../../../src/slack/to-inbox-message.js';
import { isSlackInboxMessage } from '../../../../src/slack/slack-inbox-message.js';

describe('sanitizeFileName', () => {
  it.each([
    ['notes.txt', 'notes.txt'],
    ['../../x', '__.._x'],
    ['..', '_'],
    ['.env', '_env'],
    ['a/b\\c', 'a_b_c'],
    ['a\u0007b\u001b[31m\nc.txt', 'ab[31mc.txt'],
    ['\u0000', 'file'],
    ['   ', 'file'],
    ['', 'file'],
    ['e\u0301.txt', 'é.txt'],
  ])('%j → %j', (name, expected) => {
    expect(sanitizeFileName(name)).toBe(expected);
  });
});

describe('storedFileNames', () => {
  it('prefixes the message ts and keeps every name within 200 bytes, extension kept', () => {
    const [long] = storedFileNames('1700000000.000100', [`${'é'.repeat(300)}.csv`]);
    expect(Buffer.byteLength(long ?? '')).toBeLessThanOrEqual(200);
    expect(long).toMatch(/^1700000000\.000100-é+\.csv$/);
    expect(Buffer.from(long ?? '').toString('utf8')).toBe(long);
  });

  it.each([
    [
      ['a.txt', 'b.txt'],
      ['1.2-a.txt', '1.2-b.txt'],
    ],
    [
      ['a.txt', 'a.txt'],
      ['1.2-a.txt', '1.2-2-a.txt'],
    ],
    [
      ['../x', '..\\x'],
      ['1.2-__x', '1.2-2-__x'],
    ],
  ])('%j → %j', (names, expected) => {
    expect(storedFileNames('1.2', names)).toEqual(expected);
  });

  it('cuts a name of emoji on a character boundary', () => {
    const [name] = storedFileNames('1.2', ['😀'.repeat(100)]);
    expect(Buffer.byteLength(name ?? '')).toBeLessThanOrEqual(200);
    expect(name?.includes('\ufffd')).toBe(false);
  });

  it('keeps a hostile ts out of the name', () => {
    expect(storedFileNames('../1.2', ['a'])).toEqual(['1.2-a']);
  });
});

describe('mayCarryBotToken: the token goes to Slack’s file host only', () => {
  const api = 'http://127.0.0.1:4000/api/';
  it.each([
    ['https://files.slack.com/files-pri/T1-F1/download/a.txt', undefined, true],
    ['http://files.slack.com/files-pri/T1-F1/download/a.txt', undefined, false],
    ['https://files.slack.com:8443/x', undefined, false],
    ['https://files.slack.com.evil.example/x', undefined, false],
    ['https://evil.example/files.slack.com/x', undefined, false],
    ['https://user@files.slack.com/x', undefined, true],
    ['http://127.0.0.1:4000/files-pri/T1-F1/download/a', api, true],
    ['http://127.0.0.1:4001/files-pri/T1-F1/download/a', api, false],
    ['http://localhost:4000/files-pri/x', api, false],
    ['https://files.slack.com/x', api, true],
    ['file:///etc/passwd', api, false],
    ['not a url', api, false],
  ])('%s (api %s) → %s', (url, apiUrl, expected) => {
    expect(mayCarryBotToken(url, apiUrl)).toBe(expected);
  });
});

describe('the file lines', () => {
  it.each([
    [
      { kind: 'stored' as const, name: 'a.txt', path: '/s/files/x/1-a.txt', bytes: 12 },
      '[file: /s/files/x/1-a.txt (a.txt, 12 bytes)]',
    ],
    [
      { kind: 'failed' as const, name: 'b\nc.bin', why: 'too large' },
      '[file not delivered: b c.bin: too large]',
    ],
  ])('%j', (outcome, expected) => {
    expect(formatFileLine(outcome)).toBe(expected);
  });

  it('come after the text; a message of only files is only the lines', () => {
    const outcome = { kind: 'failed' as const, name: 'x', why: 'gone' };
    expect(withFileLines('look', [outcome])).toBe('look\n\n[file not delivered: x: gone]');
    expect(withFileLines('  ', [outcome])).toBe('[file not delivered: x: gone]');
    expect(withFileLines('look', [])).toBe('look');
  });

  it('cuts a display name to 200 characters', () => {
    expect([...displayFileName('x'.repeat(300))]).toHaveLength(200);
  });
});

describe('a file_share reply in the inbox', () => {
  const base = {
    type: 'message',
    channel: 'C1',
    user: 'U1',
    ts: '2.0',
    thread_ts: '1.0',
  };
  it('keeps the files, and a reply of only files is a message', () => {
    const message = toInboxMessage(
      {
        ...base,
        subtype: 'file_share',
        files: [
          { id: 'F1', name: 'a.txt', size: 3, url_private_download: 'https://files.slack.com/a' },
          { id: 'F2', name: 'gone', mode: 'tombstone', url_private_download: 'https://x' },
          { name: 'no id' },
          'junk',
        ],
      },
      'Ev1',
      0,
    );
    expect(message?.text).toBe('');
    expect(message?.files).toEqual([
      { id: 'F1', name: 'a.txt', size: 3, url: 'https://files.slack.com/a' },
      { id: 'F2', name: 'gone' },
    ]);
    expect(isSlackInboxMessage(message)).toBe(true);
    expect(isSlackInboxMessage({ ...message, files: [{ id: 1 }] })).toBe(false);
  });

  it('still drops other subtypes and a reply with neither text nor files', () => {
    expect(toInboxMessage({ ...base, subtype: 'bot_message', text: 'x' }, 'Ev', 0)).toBe(undefined);
    expect(toInboxMessage({ ...base, subtype: 'file_share' }, 'Ev', 0)).toBe(undefined);
    expect(readSlackFiles(undefined)).toEqual([]);
  });
});

describe('sweeping and removing session files', () => {
  it('removes files older than a week, keeps newer ones and the folders', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'loop-files-'));
    const dir = path.join(root, 'files', 'loop-standing-a');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'old.txt'), 'old');
    await writeFile(path.join(dir, 'new.txt'), 'new');
    const now = Date.now();
    const eightDays = new Date(now - 8 * 24 * 60 * 60 * 1000);
    await utimes(path.join(dir, 'old.txt'), eightDays, eightDays);
    expect(await sweepSessionFiles(root, now)).toBe(1);
    expect(await readdir(dir)).toEqual(['new.txt']);
    await removeSessionFiles(root, 'loop-standing-a');
    expect(await readdir(path.join(root, 'files'))).toEqual([]);
    expect(await sweepSessionFiles(path.join(root, 'nothing-here'), now)).toBe(0);
  });
});
