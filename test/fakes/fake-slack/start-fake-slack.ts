import { createServer } from 'node:http';
import { attachSocketServer, type FakeSocket } from './attach-socket-server.js';
import { createEnvelopeBuilders } from './create-envelope-builders.js';
import { createEventBuilders } from './create-event-builders.js';
import { createFailurePlan, type FakeFailure } from './create-failure-plan.js';
import { createHttpHandler, type ResponseUrlPost, type WebApiCall } from './create-http-handler.js';
import { createRecorder } from './create-recorder.js';
import { createTsClock } from './create-ts-clock.js';
import { createWebApiMethods } from './create-web-api-methods.js';
import {
  createFileStore,
  type FakeFileArgs,
  type FileDownload,
  type UploadedFile,
} from './create-file-store.js';
import {
  fakeSlackIdentity,
  type FakeSlackIdentity,
  type FakeSlackOptions,
} from './fake-slack-identity.js';

export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;
export type { FakeFailure, FakeSlackOptions, FakeSocket, ResponseUrlPost, WebApiCall };
export type { FakeFileArgs, FileDownload, UploadedFile };

const defaultWaitMs = 5_000;

/**
 * Slack at the network edge, on 127.0.0.1 and a random port: the Web API under `apiUrl` (give it to
 * Bolt and WebClient as `slackApiUrl`, or as SLACK_API_URL), Socket Mode at the URL
 * `apps.connections.open` returns, and the `response_url`s of slash commands. Every call is recorded;
 * failures and outages can be injected. Stop the Slack clients before `stop()`, or they reconnect.
 */
export async function startFakeSlack(options: FakeSlackOptions = {}) {
  const identity: FakeSlackIdentity = fakeSlackIdentity(options);
  const now = options.now ?? Date.now;
  const nextTs = createTsClock();
  const calls = createRecorder<WebApiCall>();
  const responses = createRecorder<ResponseUrlPost>();
  const failures = createFailurePlan();
  let down = false;
  const isDown = () => down;

  const server = createServer();
  const spread = options.spread === true;
  const socket = attachSocketServer(server, { identity, now, isDown, spread });
  let baseUrl = '';
  const files = createFileStore(identity, () => baseUrl);
  const methods = createWebApiMethods(identity, nextTs, socket.issueUrl, files);
  server.on(
    'request',
    createHttpHandler({ identity, methods, failures, calls, responses, now, isDown, files }),
  );
  // While "down", new connections are cut before a byte is read, as when Slack is unreachable.
  server.on('connection', (connection) => {
    if (down) connection.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const publicSocket: FakeSocket = socket;
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    identity,
    socket: publicSocket,
    calls: calls.items,
    callsTo: (method: string) => calls.items.filter((call) => call.method === method),
    waitForCall(
      method: string,
      predicate: (call: WebApiCall) => boolean = () => true,
      timeoutMs = defaultWaitMs,
    ): Promise<WebApiCall> {
      const matches = (call: WebApiCall) => call.method === method && predicate(call);
      return calls.waitFor(matches, timeoutMs, `${method} call`);
    },
    responses: responses.items,
    waitForResponse(
      predicate: (post: ResponseUrlPost) => boolean = () => true,
      timeoutMs = defaultWaitMs,
    ): Promise<ResponseUrlPost> {
      return responses.waitFor(predicate, timeoutMs, 'response_url post');
    },
    failNext(method: string, failure: FakeFailure, times = 1): void {
      failures.failNext(method, failure, times);
    },
    /** A rate-limit storm: every call to `method` answers 429 until `stopStorm(method)`. */
    storm(method: string, retryAfterSeconds = 1): void {
      failures.storm(method, retryAfterSeconds);
    },
    stopStorm(method: string): void {
      failures.stopStorm(method);
    },
    /** While down, every HTTP request and connection is cut off (Socket Mode included). */
    setDown(value: boolean): void {
      down = value;
    },
    /** Forgets recorded calls, responses and planned failures, and comes back up. */
    reset(): void {
      calls.reset();
      responses.reset();
      failures.reset();
      down = false;
    },
    nextTs,
    /** A shared file for a message's `files`: its bytes go only to the bot token. */
    addFile: (args: FakeFileArgs) => files.addFile(args),
    /** Every request for a shared file's bytes. */
    fileDownloads: files.downloads as readonly FileDownload[],
    /** Files uploaded and completed into a channel or thread. */
    uploadedFiles: files.uploaded as readonly UploadedFile[],
    ...createEventBuilders(identity, nextTs),
    ...createEnvelopeBuilders(identity, baseUrl, now),
    async stop(): Promise<void> {
      socket.close();
      calls.close();
      responses.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
