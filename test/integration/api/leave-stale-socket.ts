import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Leaves the socket file a crashed `serve` would: a child process listens on `socketPath` and
 * is SIGKILLed, so nothing unlinks the file and nothing answers on it any more.
 */
export async function leaveStaleSocket(socketPath: string): Promise<void> {
  const script =
    "require('node:net').createServer().listen(process.argv[1], () => " +
    "process.kill(process.pid, 'SIGKILL'))";
  const child = spawn(process.execPath, ['-e', script, socketPath], { stdio: 'ignore' });
  const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
  if (signal !== 'SIGKILL')
    throw new Error(`the stale-socket helper exited with ${String(signal)}`);
}
