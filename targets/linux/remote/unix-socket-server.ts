// Serves connect routes as gRPC over HTTP/2 on a unix socket, the module side of the channel
// between svc-server and a module process (and the server side for a module's calls back), through
// the same RPC handler as the API port: its unary calls and server streams take the lean path,
// straight from their HTTP/2 streams, the rest go through connect. The socket is readable and
// writable by its owner only, so no credentials are asked; a message may be as large as one
// buffer. A stale socket left by a crashed process is replaced; a live one is not. Closing is
// prompt: running calls are told to wrap up (their signal aborts), sessions get GOAWAY, and
// whatever is still open at the deadline is destroyed.
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { setMaxListeners } from "node:events";
import { chmod, lstat, unlink } from "node:fs/promises";
import { createServer, type Http2Session } from "node:http2";
import { connect } from "node:net";
import { createRpcHandler } from "../../../node/rpc/rpc-handler.js";
import { streamsFirst } from "../../../node/rpc/streams-first.js";
import { createUnknownRpcResponder } from "../../../node/rpc/unknown-rpc.js";
import { ListenError } from "../system/index.js";
import { createCallValues } from "../../../node/rpc/call-values.js";

export interface UnixSocketServerOptions {
  /** Run around every call, first to last. */
  readonly interceptors?: readonly Interceptor[];
  /** How long close() lets running calls finish before it destroys the sessions left. Default 2000. */
  readonly closeDeadlineMs?: number;
  /** Told when a call's answer could not be written. */
  readonly onCallError?: (error: unknown, path: string) => void;
}

// Both ends of the socket are this user's processes: a message is bounded only by what one buffer holds.
const LOCAL_MESSAGE_MAX_BYTES = 2 ** 31 - 1;

export interface UnixSocketServer {
  readonly socketPath: string;
  /** Stops serving, ends every session (within the close deadline) and removes the socket file. Idempotent. */
  close(): Promise<void>;
}

// sun_path holds 104 bytes on macOS and 108 on Linux, each with a terminating NUL; the smaller
// limit keeps a path working on both.
export const MAX_SOCKET_PATH_BYTES = 103;

export async function listenOnUnixSocket(
  socketPath: string,
  routes: (router: ConnectRouter) => void,
  options: UnixSocketServerOptions = {},
): Promise<UnixSocketServer> {
  const bytes = Buffer.byteLength(socketPath);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new ListenError(`${socketPath}: a unix socket path may be at most ${MAX_SOCKET_PATH_BYTES} bytes, this one is ${bytes}`);
  }
  await removeStaleSocket(socketPath);

  const shutdown = new AbortController();
  // Every call in flight listens to it; many at once is normal, not a leak.
  setMaxListeners(0, shutdown.signal);
  const rpc = createRpcHandler({
    routes,
    interceptors: [...(options.interceptors ?? [])],
    shutdownSignal: shutdown.signal,
    contextValues: () => createCallValues(),
    limits: { maxMessageBytes: LOCAL_MESSAGE_MAX_BYTES, openMethodMaxBytes: LOCAL_MESSAGE_MAX_BYTES },
    onError: options.onCallError ?? (() => {}),
  });
  // A method nobody serves is a plain 404, as connect's router answers it: the client names the
  // resource and the method it asked for (remote-call-error.ts).
  const unknown = createUnknownRpcResponder(rpc.services);
  const server = createServer((req, res) => {
    if (!rpc.serve(req, res, (req.url ?? "/").split("?")[0]!)) unknown.notFound(res);
  });
  streamsFirst(server, (stream, headers, rawHeaders) => rpc.serveStream(stream, headers, rawHeaders));
  const sessions = new Set<Http2Session>();
  server.on("session", (session) => {
    if (shutdown.signal.aborted) {
      session.destroy();
      return;
    }
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    // A peer that vanishes mid-frame raises an error here; 'close' follows it.
    session.on("error", () => {});
  });

  await listen(server, socketPath);
  let inode: number;
  try {
    await chmod(socketPath, 0o600);
    inode = (await lstat(socketPath)).ino;
  } catch (cause) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw new ListenError(`${socketPath}: ${(cause as Error).message}`, { cause });
  }

  const deadlineMs = options.closeDeadlineMs ?? 2000;
  let closing: Promise<void> | undefined;
  return {
    socketPath,
    close() {
      closing ??= (async () => {
        shutdown.abort();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const session of sessions) session.close();
        const deadline = setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, deadlineMs);
        await stopped;
        clearTimeout(deadline);
        await removeOwnSocket(socketPath, inode);
      })();
      return closing;
    },
  };
}

function listen(server: ReturnType<typeof createServer>, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (cause: NodeJS.ErrnoException) => {
      reject(new ListenError(`${socketPath}: ${cause.code === "EADDRINUSE" ? "already in use" : cause.message}`, { cause }));
    };
    server.once("error", onError);
    server.listen({ path: socketPath }, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Removes a socket nobody answers on; refuses a live socket and anything that is not a socket. */
async function removeStaleSocket(socketPath: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = (await lstat(socketPath)).isSocket();
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new ListenError(`${socketPath}: ${(cause as Error).message}`, { cause });
  }
  if (!isSocket) throw new ListenError(`${socketPath}: exists and is not a socket; not replacing it`);
  if (await answers(socketPath)) throw new ListenError(`${socketPath}: another process is serving on it`);
  await unlink(socketPath).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code !== "ENOENT") throw new ListenError(`${socketPath}: cannot remove the stale socket: ${cause.message}`, { cause });
  });
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

/** Removes the socket file if it is still the one this server made (a successor may own the path by now). */
async function removeOwnSocket(socketPath: string, inode: number): Promise<void> {
  try {
    if ((await lstat(socketPath)).ino === inode) await unlink(socketPath);
  } catch {
    // Already gone (Node removes it on close on some platforms): nothing to do.
  }
}
