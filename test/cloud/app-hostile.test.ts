// The hostile half of AppService, against the real svc-cloud: a part's key is refused on every
// call; configs too big, malformed or too deep are refused in words and save nothing; stale and
// concurrent edits of one part never overwrite each other silently.
import { create, toBinary, type DescMethod, type JsonObject } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { ConnectError, createClient, type Client } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService, UpdateRobotPartRequestSchema } from "../../proto/gen/app/v1/app_pb.js";
import { cloudTransport, bearer, signedInClient, signIn } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let app: Client<typeof AppService>;
let machine: MachineCredentials;

beforeAll(async () => {
  cloud = await startCloud();
  app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  machine = cloud.createMachine("target");
});
afterAll(() => cloud?.stop());

const sensor = (name: string) => ({ name, api: "rdk:component:sensor", model: "fake" });

/** The part's newest revision time and config, to show a refused edit saved nothing. */
async function saved(partId: string) {
  const { part } = await app.getRobotPart({ id: partId });
  return { updated: timestampMs(part!.lastUpdated!), config: part!.robotConfig };
}

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (thrown) {
    return ConnectError.from(thrown).code.toString();
  }
}

describe("a part's key on the user side", () => {
  it("is refused on every AppService call, whatever the call asks", async () => {
    const token = await signIn(cloud.url, machine.cloud.api_key.id, machine.cloud.api_key.key);
    const asPart = createClient(AppService, cloudTransport(cloud.url, "grpc", [bearer(token)]));
    const ids = { id: machine.cloud.id, partId: machine.cloud.id, robotId: machine.cloud.id, organizationId: cloud.init.organization_id, orgId: cloud.init.organization_id, locationId: cloud.init.location_id };
    const refused: string[] = [];
    for (const method of AppService.methods as DescMethod[]) {
      const request = Object.fromEntries(method.input.fields.filter((f) => f.localName in ids).map((f) => [f.localName, ids[f.localName as keyof typeof ids]]));
      const call = (asPart as unknown as Record<string, (r: unknown) => unknown>)[method.localName]!(request);
      const outcome = await (method.methodKind === "server_streaming"
        ? (async () => {
            for await (const _ of call as AsyncIterable<unknown>) break;
          })()
        : (call as Promise<unknown>)
      ).then(
        () => "answered",
        (thrown: unknown) => ConnectError.from(thrown).rawMessage,
      );
      if (outcome === "a part's key reaches its own part's device API only") refused.push(method.name);
      else expect.soft(outcome, method.name).toBe("a part's key reaches its own part's device API only");
    }
    expect(refused.length).toBe(AppService.methods.length);
  });
});

describe("configs a part is refused", () => {
  it("a malformed config, with the place of the problem; nothing is saved", async () => {
    const before = await saved(machine.cloud.id);
    await expect(app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: { components: "sensor" } })).rejects.toThrow(
      /\[invalid_argument\] the config was not saved: robot_config\.components: must be an array \(found "sensor"\)/,
    );
    await expect(app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: { components: [{ ...sensor("a"), attributes: { pin: 1 } }, { name: 7 }] } })).rejects.toThrow(
      /robot_config\.components\[1\]\.name: must be a name/,
    );
    expect(await saved(machine.cloud.id)).toEqual(before);
  });

  it("a config past 4 MiB; nothing is saved", async () => {
    const before = await saved(machine.cloud.id);
    const big = { components: [{ ...sensor("big"), attributes: { blob: "x".repeat(4 * 1024 * 1024 + 1) } }] };
    const message = await app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: big }).then(
      () => "saved",
      (thrown: unknown) => String(ConnectError.from(thrown).message),
    );
    expect(message).toMatch(/resource_exhausted.*(larger than|exceeds).*4194304/);
    expect(await saved(machine.cloud.id)).toEqual(before);
  });

  it("a config nested past 32 levels, with where; nothing is saved", async () => {
    const before = await saved(machine.cloud.id);
    let deep: JsonObject = {};
    for (let i = 0; i < 40; i++) deep = { deeper: deep };
    await expect(app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: { components: [{ ...sensor("deep"), attributes: deep }] } })).rejects.toThrow(
      /\[invalid_argument\] the config was not saved: robot_config\.components\[0\]\.attributes\.deeper: nested deeper than 32 levels/,
    );
    expect(await saved(machine.cloud.id)).toEqual(before);
  });

  it("a request nested 10,000 levels deep, as gRPC-web and as Connect JSON; nothing is saved and the service stays up", async () => {
    const before = await saved(machine.cloud.id);
    const token = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    const path = "/viam.app.v1.AppService/UpdateRobotPart";
    const binary = await fetch(`${cloud.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", authorization: `Bearer ${token}` },
      body: grpcWebFrame(updateRequestBytes(machine.cloud.id, nestedStructBytes(10_000))),
    });
    const binaryText = new TextDecoder().decode(await binary.arrayBuffer());
    const status = binary.headers.get("grpc-status") ?? /grpc-status:\s*(\d+)/.exec(binaryText)?.[1];
    const grpcMessage = decodeURIComponent(binary.headers.get("grpc-message") ?? /grpc-message:\s*([^\r\n]*)/.exec(binaryText)?.[1] ?? "");
    // connect answers every request it cannot decode as INTERNAL; the message says why.
    expect({ status, grpcMessage }).toEqual({ status: "13", grpcMessage: "parse binary: cannot decode message google.protobuf.Value from binary: maximum recursion depth of 100 reached" });

    const json = await fetch(`${cloud.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: `{"id":${JSON.stringify(machine.cloud.id)},"robotConfig":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`,
    });
    const answer = (await json.json()) as { code: string; message: string };
    expect(answer.code).toBe("invalid_argument");
    expect(answer.message).toBe("cannot decode google.protobuf.Value from JSON: maximum recursion depth of 100 reached");
    expect(await saved(machine.cloud.id)).toEqual(before);
  });
});

describe("names made at once", () => {
  it("give one machine, or one part, however many callers ask for the same name together", async () => {
    const { location_id } = cloud.init;
    const machines = await Promise.allSettled(Array.from({ length: 12 }, () => app.newRobot({ name: "twin", location: location_id })));
    expect(machines.filter((m) => m.status === "fulfilled")).toHaveLength(1);
    for (const m of machines) if (m.status === "rejected") expect(String(m.reason)).toMatch(/\[already_exists\] a machine named "twin" already exists/);
    const listed = await app.listRobots({ locationId: location_id });
    expect(listed.robots.filter((r) => r.name === "twin")).toHaveLength(1);

    const machineId = (machines.find((m) => m.status === "fulfilled") as PromiseFulfilledResult<{ id: string }>).value.id;
    const parts = await Promise.allSettled(Array.from({ length: 12 }, () => app.newRobotPart({ robotId: machineId, partName: "camera" })));
    expect(parts.filter((p) => p.status === "fulfilled")).toHaveLength(1);
    const renamed = await Promise.allSettled(
      Array.from({ length: 6 }, async (_, i) => {
        const { partId } = await app.newRobotPart({ robotId: machineId, partName: `spare-${i}` });
        return app.updateRobotPart({ id: partId, name: "lens" });
      }),
    );
    expect(renamed.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const names = (await app.getRobotParts({ robotId: machineId })).parts.map((p) => p.name);
    expect(names.filter((n) => n === "camera")).toHaveLength(1);
    expect(names.filter((n) => n === "lens")).toHaveLength(1);
  });
});

describe("edits of one part", () => {
  it("refuses an edit based on a revision older than the newest, as ABORTED, saying why", async () => {
    const { part } = await app.getRobotPart({ id: machine.cloud.id });
    const basis = part!.lastUpdated!;
    await app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: { components: [sensor("first")] }, lastKnownUpdate: basis });
    const after = await saved(machine.cloud.id);
    await expect(app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: { components: [sensor("second")] }, lastKnownUpdate: basis })).rejects.toThrow(
      /\[aborted\] the part's config was changed at .*, after the version this edit started from .*; reload it and edit again/,
    );
    expect(await saved(machine.cloud.id)).toEqual(after);
  });

  it("lets exactly one of several concurrent edits from the same revision win", async () => {
    const { part } = await app.getRobotPart({ id: machine.cloud.id });
    const basis = part!.lastUpdated!;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        codeOf(app.updateRobotPart({ id: machine.cloud.id, name: "target-main", robotConfig: { components: [sensor(`racer${i}`)] }, lastKnownUpdate: basis })),
      ),
    );
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
    expect(outcomes.filter((o) => o !== "ok").every((o) => o === "10")).toBe(true);
    const winner = outcomes.indexOf("ok");
    expect((await saved(machine.cloud.id)).config).toEqual({ components: [sensor(`racer${winner}`)] });
  });
});

function varint(n: number): Uint8Array {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Uint8Array.from(out);
}

function lengthDelimited(field: number, ...parts: Uint8Array[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Uint8Array.of((field << 3) | 2), varint(body.length), body]);
}

/** A google.protobuf.Struct `{"a": {"a": ... {}}}` `levels` deep, built without recursion. */
function nestedStructBytes(levels: number): Buffer {
  const key = lengthDelimited(1, Buffer.from("a"));
  let struct: Buffer = Buffer.alloc(0);
  // Struct.fields holds an entry {key, Value}; Value.struct_value (5) holds the next Struct.
  for (let i = 0; i < levels; i++) struct = lengthDelimited(1, key, lengthDelimited(2, lengthDelimited(5, struct)));
  return struct;
}

function updateRequestBytes(partId: string, struct: Buffer): Buffer {
  return Buffer.concat([toBinary(UpdateRobotPartRequestSchema, create(UpdateRobotPartRequestSchema, { id: partId, name: "target-main" })), lengthDelimited(3, struct)]);
}

function grpcWebFrame(message: Buffer): Buffer {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}
