// Wire conformance: the case table (cases/) run over the client table (clients/) against real
// svc-server processes. A case a client cannot express is not run for it, and the client's row
// says why; the table itself is checked so that no pair goes missing silently.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { requireTools } from "../helpers/system-tools.js";
import { wireCases } from "./cases/index.js";
import { wireClients } from "./clients/index.js";
import type { WireCase } from "./wire-case.js";
import type { WireClient, WireClientKind } from "./wire-client.js";
import { startWireMachine, type MachineName, type WireMachine } from "./wire-machine.js";

const machines = new Map<MachineName, WireMachine>();
const opened: WireClient[] = [];

beforeAll(async () => {
  requireTools("curl");
  // The SDK reports each refused dial on console.debug; the cases look at the outcome itself.
  vi.spyOn(console, "debug").mockImplementation(() => {});
  const [open, keys] = await Promise.all([startWireMachine("open"), startWireMachine("keys")]);
  machines.set("open", open).set("keys", keys);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([...machines.values()].map((machine) => machine.stop()));
});

/** Why `kind` cannot run `wireCase`, or undefined when it can. */
function cannotRun(kind: WireClientKind, wireCase: WireCase): string | undefined {
  return (wireCase.needs ?? []).map((need) => kind.cannot[need]).find((why) => why !== undefined);
}

for (const kind of wireClients) {
  describe(kind.name, () => {
    for (const wireCase of wireCases) {
      if (cannotRun(kind, wireCase) !== undefined) continue;
      it(wireCase.name, async () => {
        const machine = machines.get(wireCase.machine)!;
        await wireCase.run({
          kind,
          machine,
          open(credentials) {
            const client = kind.open(machine.target, credentials);
            opened.push(client);
            return client;
          },
        });
      });
    }
  });
}

describe("the tables", () => {
  it("run every case on several clients, and give a reason for every pair left out", () => {
    const names = wireClients.map((kind) => kind.name);
    expect(new Set(names).size).toBe(names.length);
    for (const wireCase of wireCases) {
      const runners = wireClients.filter((kind) => cannotRun(kind, wireCase) === undefined);
      expect(runners.length, wireCase.name).toBeGreaterThanOrEqual(2);
      for (const kind of wireClients) expect(cannotRun(kind, wireCase) ?? "runs", `${kind.name}: ${wireCase.name}`).not.toBe("");
    }
    // Every protocol is met by at least one library client and one hand-made one.
    for (const protocol of ["grpc", "grpc-web", "connect"] as const) {
      const of = wireClients.filter((kind) => kind.protocol === protocol);
      expect(of.some((kind) => kind.cannot.raw === undefined), protocol).toBe(true);
      expect(of.some((kind) => kind.cannot.raw !== undefined), protocol).toBe(true);
    }
  });
});
