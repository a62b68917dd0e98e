// Guides name the port a reader's machine uses (localhost:8080), so the tests that run them as
// written cannot each pick a free one: they take turns. A turn is held by listening on an
// abstract unix socket named after the port (Linux), which only one process can hold, which
// leaves no file behind, and which the kernel releases when its holder dies, however it dies.
import { createServer, type Server } from "node:net";
import { eventually } from "./eventually.js";

function listen(name: string): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen({ path: `\0${name}` }, () => resolve(server));
  });
}

/** Waits for the turn on `port` among the tests of this machine; call the result to give it back. */
export async function claimPort(port: number): Promise<() => Promise<void>> {
  const server = await eventually(() => listen(`svc-guide-port-${port}`), `the turn on port ${port} (another guide test holds it)`, {
    timeoutMs: 600_000,
    everyMs: 250,
  });
  return () => new Promise((resolve) => server.close(() => resolve()));
}
