import { Agent, request } from 'node:http';

export interface PostRequest {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface PostOutcome {
  readonly status: number;
  readonly body: string;
  /** Request written → whole answer read, ms. */
  readonly ms: number;
}

/**
 * POSTs every request to `url` with at most `concurrency` in flight over kept-alive connections,
 * as a busy sender would; returns the outcomes in request order and the wall time of it all.
 */
export async function postAll(
  url: string,
  requests: readonly PostRequest[],
  concurrency: number,
): Promise<{ outcomes: PostOutcome[]; wallMs: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const outcomes = new Array<PostOutcome>(requests.length);
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const index = next++;
      const item = requests[index];
      if (item) outcomes[index] = await post(url, item, agent);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return { outcomes, wallMs: performance.now() - started };
}

function post(url: string, item: PostRequest, agent: Agent): Promise<PostOutcome> {
  return new Promise((resolve, reject) => {
    const begun = performance.now();
    const outgoing = request(url, {
      method: 'POST',
      agent,
      headers: { ...item.headers, 'content-length': String(Buffer.byteLength(item.body)) },
    });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - begun,
        }),
      );
    });
    outgoing.end(item.body);
  });
}
