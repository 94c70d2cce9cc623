import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeSlackIdentity } from './fake-slack-identity.js';

/** A file someone shared, as the fake serves it. */
export interface FakeFileArgs {
  readonly name: string;
  readonly content: Buffer | string;
  readonly mimetype?: string;
  /** The download stops (the connection is cut) after this many bytes. */
  readonly cutAfterBytes?: number;
  /** The size Slack reports in the event, when it should differ from the content's. */
  readonly reportedSize?: number;
}

/** One request for a file's bytes, and whether it carried the bot token. */
export interface FileDownload {
  readonly fileId: string;
  readonly authorized: boolean;
  readonly at: number;
}

/** What `files.completeUploadExternal` made of an upload: where it was shared and its bytes. */
export interface UploadedFile {
  readonly id: string;
  readonly filename: string;
  readonly length: number;
  readonly content: Buffer;
  readonly title?: string;
  readonly channelId?: string;
  readonly threadTs?: string;
  readonly initialComment?: string;
}

/**
 * Files in both directions, as Slack keeps them: shared files served under `/files-pri/…` only
 * to the bot token (anything else is redirected to the sign-in page, as Slack does), and uploads
 * through `files.getUploadURLExternal` → POST to `/upload/<id>` → `files.completeUploadExternal`.
 */
export function createFileStore(identity: FakeSlackIdentity, baseUrl: () => string) {
  const shared = new Map<string, FakeFileArgs & { readonly bytes: Buffer }>();
  const pending = new Map<string, { filename: string; length: number; content?: Buffer }>();
  const uploaded: UploadedFile[] = [];
  const downloads: FileDownload[] = [];
  let next = 1;
  const newId = () => `F0FAKE${String(next++).padStart(4, '0')}`;

  return {
    downloads,
    uploaded,
    /** A Slack file object for a message event's `files`, served at its url_private_download. */
    addFile(args: FakeFileArgs): Record<string, unknown> {
      const id = newId();
      const bytes = Buffer.isBuffer(args.content) ? args.content : Buffer.from(args.content);
      shared.set(id, { ...args, bytes });
      const base = `${baseUrl()}/files-pri/${identity.teamId}-${id}`;
      return {
        id,
        created: Math.floor(Date.now() / 1000),
        name: args.name,
        title: args.name,
        mimetype: args.mimetype ?? 'text/plain',
        filetype: 'text',
        user: 'U0DANA',
        mode: 'hosted',
        size: args.reportedSize ?? bytes.length,
        url_private: `${base}/${encodeURIComponent(args.name)}`,
        url_private_download: `${base}/download/${encodeURIComponent(args.name)}`,
      };
    },
    /** Starts an upload; the reply of files.getUploadURLExternal. */
    startUpload(filename: string, length: number): { upload_url: string; file_id: string } {
      const id = newId();
      pending.set(id, { filename, length });
      return { upload_url: `${baseUrl()}/upload/${id}`, file_id: id };
    },
    /** files.completeUploadExternal: each file must have had its bytes posted. */
    complete(
      files: readonly { id: string; title?: string }[],
      where: { channelId?: string; threadTs?: string; initialComment?: string },
    ): { ok: true; files: unknown[] } | { ok: false; error: string } {
      const done: UploadedFile[] = [];
      for (const file of files) {
        const upload = pending.get(file.id);
        if (upload?.content === undefined) return { ok: false, error: 'file_not_found' };
        done.push({
          id: file.id,
          filename: upload.filename,
          length: upload.length,
          content: upload.content,
          ...(file.title === undefined ? {} : { title: file.title }),
          ...(where.channelId === undefined ? {} : { channelId: where.channelId }),
          ...(where.threadTs === undefined ? {} : { threadTs: where.threadTs }),
          ...(where.initialComment === undefined ? {} : { initialComment: where.initialComment }),
        });
      }
      for (const file of done) {
        pending.delete(file.id);
        uploaded.push(file);
      }
      return { ok: true, files: done.map((file) => ({ id: file.id, title: file.title ?? '' })) };
    },
    /** Serves `/files-pri/…` and `/upload/…`; false when the path is neither. */
    serve(req: IncomingMessage, res: ServerResponse, raw: Buffer, now: number): boolean {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const download = /^\/files-pri\/[A-Z0-9]+-(F[A-Z0-9]+)\/download\//.exec(path);
      if (download?.[1] !== undefined && req.method === 'GET') {
        serveDownload(download[1], req, res, now);
        return true;
      }
      const upload = /^\/upload\/(F[A-Z0-9]+)$/.exec(path);
      if (upload?.[1] !== undefined && req.method === 'POST') {
        const entry = pending.get(upload[1]);
        if (entry === undefined) {
          res.writeHead(404).end('not found');
        } else {
          entry.content = raw;
          res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${raw.length}`);
        }
        return true;
      }
      return false;
    },
  };

  function serveDownload(id: string, req: IncomingMessage, res: ServerResponse, now: number) {
    const authorized = req.headers.authorization === `Bearer ${identity.botToken}`;
    downloads.push({ fileId: id, authorized, at: now });
    const file = shared.get(id);
    if (!authorized) {
      // As Slack: no (or a wrong) token is sent to the sign-in page, not given the file.
      res.writeHead(302, {
        location: `${baseUrl()}/signin?redir=${encodeURIComponent(path(req))}`,
      });
      res.end();
      return;
    }
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('file_not_found');
      return;
    }
    res.writeHead(200, {
      'content-type': file.mimetype ?? 'application/octet-stream',
      'content-length': String(file.bytes.length),
    });
    if (file.cutAfterBytes === undefined) {
      res.end(file.bytes);
      return;
    }
    res.write(file.bytes.subarray(0, file.cutAfterBytes), () => {
      // A cut connection, not an ended response: the client sees fewer bytes than announced.
      setTimeout(() => res.socket?.destroy(), 20);
    });
  }
}

function path(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://fake').pathname;
}

export type FileStore = ReturnType<typeof createFileStore>;
