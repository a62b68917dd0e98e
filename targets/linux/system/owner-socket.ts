// Ownership the kernel gives back: a process listens on a unix socket for as long as it owns
// something, and when it dies, however it dies, the kernel closes the socket, so a connection to
// it is refused from then on. Asking costs one connect; a PID written to a file could, by then,
// name an unrelated process.
import { chmod } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";

export interface OwnerSocket {
  readonly path: string;
  /** Stops listening and removes the socket file. */
  close(): Promise<void>;
}

/** Listens on `path`; fails with EADDRINUSE when anything is there already (nothing is replaced). */
export async function listenOwnerSocket(path: string): Promise<OwnerSocket> {
  // Nothing is ever said on it: a connection only proves the owner lives.
  const server: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.unref();
  await chmod(path, 0o600).catch(() => undefined);
  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      // Node removes the socket file as it closes the server.
      closing ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closing;
    },
  };
}

/**
 * Whether a live owner listens on `path`. Only a refused connection or a missing file counts as
 * "gone"; anything else (no permission, a full backlog, no answer in time) counts as alive.
 */
export function ownerIsAlive(path: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    const done = (alive: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    probe.once("connect", () => done(true));
    probe.once("error", (error: NodeJS.ErrnoException) => done(error.code !== "ECONNREFUSED" && error.code !== "ENOENT"));
  });
}
