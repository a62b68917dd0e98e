// A TCP load balancer for tests, as an operator puts in front of several svc-cloud replicas: each
// connection it takes goes to the next backend in turn, and a backend that refuses (its process was
// killed) is passed over for the next. It knows nothing of HTTP: a machine's HTTP/2 connection stays
// with the replica it reached until that connection ends. `connections()` says how many it carries
// to each backend; `close()` ends every connection and stops listening.
import { connect, createServer, type Socket } from "node:net";

export interface TcpBalancer {
  readonly url: string;
  /** Open connections carried to each backend, by its port. */
  connections(): Map<number, number>;
  close(): Promise<void>;
}

export async function startTcpBalancer(backendPorts: readonly number[]): Promise<TcpBalancer> {
  const sockets = new Set<Socket>();
  const carried = new Map<number, number>();
  let turn = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  const reach = (client: Socket, tried: number) => {
    if (tried >= backendPorts.length || client.destroyed) return client.destroy();
    const port = backendPorts[turn++ % backendPorts.length]!;
    const backend = connect({ host: "localhost", port });
    track(backend);
    let joined = false;
    backend.once("connect", () => {
      joined = true;
      carried.set(port, (carried.get(port) ?? 0) + 1);
      backend.once("close", () => carried.set(port, (carried.get(port) ?? 1) - 1));
      client.pipe(backend);
      backend.pipe(client);
      client.resume();
    });
    backend.on("error", () => undefined);
    backend.once("close", () => (joined ? client.destroy() : reach(client, tried + 1)));
    client.once("close", () => backend.destroy());
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on("error", () => undefined);
    reach(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => new Map(carried),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
