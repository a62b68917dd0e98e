// The baseline svc is held against: connect-node's own adapter on a plain `http2.createServer`
// (gRPC) and a plain `http.createServer` (gRPC-web), each on its own loopback port, nothing else.
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { Ports } from "./child-server.js";

export interface BareConnectServer {
  ports: Ports;
  stop(): Promise<unknown>;
}

/** `fallback` answers what the routes do not (a diagnostics route); 404 without it. */
export async function listenBareConnect(
  routes: (router: ConnectRouter) => void,
  fallback?: ConnectNodeAdapterOptions["fallback"],
): Promise<BareConnectServer> {
  const handler = connectNodeAdapter({ routes, fallback });
  const servers = [http2.createServer(handler), http.createServer(handler)] as const;
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
  const [h2, web] = servers.map((s) => (s.address() as AddressInfo).port);
  return {
    ports: { h2: h2!, web: web! },
    stop: () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))),
  };
}
