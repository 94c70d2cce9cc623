/**
 * For measuring Claude Code by hand (FINDINGS.md): starts the fake Messages API on a fixed port,
 * appends every request to <dir>/requests.jsonl, and takes scripted answers as JSON lines POSTed to
 * a control port (`curl -d '{"kind":"text","text":"hi","delayMs":20000}' 127.0.0.1:<port+1>`).
 * Usage: node --import tsx test/real/tools/drive-by-hand.ts <dir> [port]
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { startFakeAnthropic } from '../../fakes/fake-anthropic/start-fake-anthropic.js';
import type { ScriptedAnswer } from '../../fakes/fake-anthropic/scripted-answer.js';

const dir = process.argv[2] ?? '.';
const fake = await startFakeAnthropic({ port: Number(process.argv[3] ?? 0) });
let seen = 0;
setInterval(() => {
  while (seen < fake.requests.length) {
    appendFileSync(`${dir}/requests.jsonl`, `${JSON.stringify(fake.requests[seen])}\n`);
    seen += 1;
  }
}, 100);
const control = createServer((req, res) => {
  let raw = '';
  req.on('data', (part: Buffer) => (raw += part.toString()));
  req.on('end', () => {
    if (req.method === 'DELETE') {
      fake.clearScript();
      res.end('cleared\n');
      return;
    }
    try {
      fake.script(JSON.parse(raw) as ScriptedAnswer);
      res.end('queued\n');
    } catch (error) {
      res.statusCode = 400;
      res.end(`${String(error)}\n`);
    }
  });
});
control.listen(Number(process.argv[3] ?? -1) + 1 || 0, '127.0.0.1', () => {
  const address = control.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${fake.url} control=${port}\n`);
});
