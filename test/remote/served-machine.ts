// One helper for remote resource tests: the real fake models, each built by its model's build()
// on a simulated board and a manual clock, served through registerComponentServices on a unix
// socket in a fresh temporary directory, with a transport dialling that socket. A test calls the
// same resource locally (the built fake) and remotely (createRemoteResource over the transport).
// `relay()` adds a second hop: the remote resources served again on another socket, as
// svc-server serves a module's resources to its own clients.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResourceConfig } from "../../core/config/index.js";
import {
  createResourceLookup,
  parseResourceName,
  SvcError,
  type Resource,
  type ResourceLookup,
  type ResourceName,
} from "../../core/index.js";
import { registerComponentServices } from "../../targets/linux/server/rpc/index.js";
import {
  createRemoteResource,
  createUnixSocketTransport,
  listenOnUnixSocket,
  type UnixSocketServer,
  type UnixSocketTransport,
} from "../../targets/linux/remote/index.js";
import { createTestMachine, entry, type TestMachine } from "../components/test-machine.js";

/** Every API's fake, in an order where a dependency comes before its dependents. */
export const servedEntries: ResourceConfig[] = [
  entry("sensor", "s1", {
    readings: { temp: 21.5, label: "lab", ok: true, nothing: null, nested: { list: [1, "two", false, null, { deep: 3 }] } },
  }),
  entry("board", "b1", { analogs: [{ name: "pot", pin: "3" }], digital_interrupts: [{ name: "ticks", pin: "13" }] }),
  entry("encoder", "e1"),
  entry("motor", "m1", { max_rpm: 60, encoder: "e1", ticks_per_rotation: 100 }),
  entry("servo", "sv1"),
  entry("movement_sensor", "ms1", { accuracy: { position_hdop: 0.9, position_vdop: 1.4, compass_degrees_error: 2.5 } }),
  entry("power_sensor", "p1", { voltage: 5.1, current: 0.3, is_ac: true }),
  entry("generic", "g1"),
  entry("generic_service", "gs1"),
];

/** A lookup over resources by full name, as the graph engine would answer for READY ones. */
export function lookupOver(resources: Map<string, Resource>): ResourceLookup {
  return createResourceLookup({
    resource: (fullName) => resources.get(fullName),
    resourceStatus: (fullName) => (resources.has(fullName) ? { state: "READY" } : undefined),
  });
}

export function nameOf(fullName: string): ResourceName {
  const parsed = parseResourceName(fullName);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

export interface ServedMachine {
  readonly machine: TestMachine;
  readonly dir: string;
  readonly socketPath: string;
  readonly transport: UnixSocketTransport;
  /** The built fake, called directly. */
  local<R extends Resource>(fullName: string): R;
  /** The same resource through the socket. */
  remote<R extends Resource>(fullName: string): R;
  /** Serves the fakes on the socket (again, after stop()). */
  serve(): Promise<UnixSocketServer>;
  /** Stops serving; the fakes keep running. */
  stop(): Promise<void>;
  /** The remote resources served again on a second socket; returns a function making clients of that hop. */
  relay(): Promise<<R extends Resource>(fullName: string) => R>;
  close(): Promise<void>;
}

export async function createServedMachine(): Promise<ServedMachine> {
  // Short on purpose: a unix socket path is limited to about 100 bytes.
  const dir = await mkdtemp(join(tmpdir(), "rr-"));
  const socketPath = join(dir, "m.sock");
  const machine = createTestMachine({ loops: [["11", "13"]] });
  const resources = new Map<string, Resource>();
  for (const config of servedEntries) {
    resources.set(`${config.api}/${config.name}`, await machine.build(config));
  }
  const lookup = lookupOver(resources);
  const transport = createUnixSocketTransport(socketPath);
  let server: UnixSocketServer | undefined;
  const extras: Array<{ close(): unknown }> = [];

  const served: ServedMachine = {
    machine,
    dir,
    socketPath,
    transport,
    local<R extends Resource>(fullName: string) {
      const found = resources.get(fullName);
      if (!found) throw new Error(`nothing built as ${fullName}`);
      return found as R;
    },
    remote<R extends Resource>(fullName: string) {
      return createRemoteResource(nameOf(fullName), transport) as R;
    },
    async serve() {
      server = await listenOnUnixSocket(socketPath, (router) => registerComponentServices(router, lookup));
      return server;
    },
    async stop() {
      await server?.close();
      server = undefined;
    },
    async relay() {
      const relayed = new Map<string, Resource>();
      for (const config of servedEntries) {
        const fullName = `${config.api}/${config.name}`;
        relayed.set(fullName, createRemoteResource(nameOf(fullName), transport));
      }
      const relayPath = join(dir, "r.sock");
      const relayServer = await listenOnUnixSocket(relayPath, (router) => registerComponentServices(router, lookupOver(relayed)));
      const relayTransport = createUnixSocketTransport(relayPath);
      extras.push({ close: () => relayTransport.close() }, relayServer);
      return <R extends Resource>(fullName: string) => createRemoteResource(nameOf(fullName), relayTransport) as R;
    },
    async close() {
      for (const extra of extras.splice(0).reverse()) await extra.close();
      transport.close();
      await served.stop();
      await machine.closeAll();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await served.serve();
  return served;
}

/** What a promise rejected with, as a transport sends it (code and message), or "resolved". */
export async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string } | "resolved"> {
  try {
    await promise;
    return "resolved";
  } catch (thrown) {
    const e = SvcError.from(thrown);
    return { code: e.code, message: e.message };
  }
}
