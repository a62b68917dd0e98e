// A release server on loopback for tests: serves a folder (an index.json and artifacts) over
// HTTP with Range support, and can misbehave on purpose: ignore Range, cut a response off after
// some bytes, or answer an error, so downloads are tested against real sockets.
import { createReadStream, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";

export interface ReleaseServerBehaviour {
  /** Ignore Range headers: always answer 200 with the whole file. */
  noRange?: boolean;
  /** Close the connection after this many body bytes, for the next `cutTimes` responses. */
  cutAfterBytes?: number;
  cutTimes?: number;
  /** Answer every request with this HTTP status. */
  status?: number;
  /** Send bodies at about this many bytes a second (a slow network). */
  bytesPerSecond?: number;
}

export interface ReleaseServer {
  /** http://127.0.0.1:<port>/ */
  readonly url: string;
  /** Every request seen: path and its Range header. */
  readonly requests: { path: string; range: string | undefined }[];
  behave(behaviour: ReleaseServerBehaviour): void;
  close(): Promise<void>;
}

export async function startReleaseServer(folder: string): Promise<ReleaseServer> {
  let behaviour: ReleaseServerBehaviour = {};
  const requests: { path: string; range: string | undefined }[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    requests.push({ path, range: req.headers.range });
    if (behaviour.status) {
      res.writeHead(behaviour.status).end("refused\n");
      return;
    }
    const file = join(folder, normalize(path).replace(/^(\.\.(\/|$))+/, ""));
    let size: number;
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw new Error("not a file");
      size = stats.size;
    } catch {
      res.writeHead(404).end("not found\n");
      return;
    }
    let start = 0;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    if (range && !behaviour.noRange) {
      start = Number(range[1]);
      if (start >= size) {
        res.writeHead(416, { "content-range": `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { "content-length": size - start, "content-range": `bytes ${start}-${size - 1}/${size}`, "accept-ranges": "bytes" });
    } else {
      res.writeHead(200, { "content-length": size, ...(behaviour.noRange ? {} : { "accept-ranges": "bytes" }) });
    }
    const cut = behaviour.cutAfterBytes !== undefined && (behaviour.cutTimes ?? 1) > 0;
    if (!cut && behaviour.bytesPerSecond) {
      const rate = behaviour.bytesPerSecond;
      const stream = createReadStream(file, { start, highWaterMark: 16 * 1024 });
      stream.on("data", (chunk) => {
        stream.pause();
        res.write(chunk);
        setTimeout(() => stream.resume(), Math.ceil((chunk.length / rate) * 1000));
      });
      stream.on("end", () => res.end());
      res.on("close", () => stream.destroy());
      return;
    }
    if (!cut) {
      createReadStream(file, { start }).pipe(res);
      return;
    }
    behaviour = { ...behaviour, cutTimes: (behaviour.cutTimes ?? 1) - 1 };
    const end = Math.min(size - 1, start + behaviour.cutAfterBytes! - 1);
    const stream = createReadStream(file, { start, end });
    stream.on("data", (chunk) => res.write(chunk));
    // Sent what it meant to, then the connection drops mid-body.
    stream.on("end", () => setTimeout(() => res.socket?.destroy(), 20));
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    behave(next) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
