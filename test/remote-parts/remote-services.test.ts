// Which service serves each API a remote lists (remote-services.ts), read within bounds: only APIs
// it lists, only names shaped like a service, at most MAX_REMOTE_SERVICES; and the resource a
// request's bytes name (request-name.ts), read without a description of the request: field 1,
// its last value, nothing when the bytes are no message.
import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { ResourceRPCSubtypesResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { MAX_REMOTE_SERVICES, readServices } from "../../targets/linux/remote-parts/index.js";
import { nameField, renamed, requestName } from "../../targets/linux/remote/index.js";

const subtypes = (entries: [string, string][]) =>
  toBinary(
    ResourceRPCSubtypesResponseSchema,
    create(ResourceRPCSubtypesResponseSchema, {
      resourceRpcSubtypes: entries.map(([api, protoService]) => {
        const [namespace = "", type = "", subtype = ""] = api.split(":");
        return { subtype: { namespace, type, subtype, name: "" }, protoService };
      }),
    }),
  );

describe("the services a remote says serve its APIs", () => {
  it("keeps those of APIs it lists, shaped like a service name, the first for each service", () => {
    const listed = new Set(["rdk:component:arm", "acme:component:gizmo"]);
    const services = readServices(
      subtypes([
        ["rdk:component:arm", "viam.component.arm.v1.ArmService"],
        ["acme:component:gizmo", "acme.gizmo.v1.GizmoService"],
        ["acme:component:gizmo", "viam.component.arm.v1.ArmService"],
        ["rdk:component:gantry", "viam.component.gantry.v1.GantryService"],
        ["acme:component:gizmo", "/../etc"],
        ["acme:component:gizmo", "NoPackage"],
        ["acme:component:gizmo", `a.${"x".repeat(300)}`],
      ]),
      listed,
    );
    expect([...services]).toEqual([
      ["viam.component.arm.v1.ArmService", "rdk:component:arm"],
      ["acme.gizmo.v1.GizmoService", "acme:component:gizmo"],
    ]);
  });

  it("keeps at most MAX_REMOTE_SERVICES, and refuses bytes that are no answer", () => {
    const many = Array.from({ length: MAX_REMOTE_SERVICES + 50 }, (_, i): [string, string] => ["acme:component:gizmo", `acme.g${i}.v1.Service`]);
    expect(readServices(subtypes(many), new Set(["acme:component:gizmo"])).size).toBe(MAX_REMOTE_SERVICES);
    expect(() => readServices(new Uint8Array([0x0a, 0x7f]), new Set())).toThrow();
  });
});

describe("the resource a request's bytes name", () => {
  const request = (name: string) => toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name, extra: { a: 1 } }));

  it("is field 1, and the last value written when renamed", () => {
    expect(requestName(request("arm1"))).toBe("arm1");
    expect(requestName(renamed(request("pi:arm1"), nameField("arm1")))).toBe("arm1");
    expect(requestName(request("ünïcode"))).toBe("ünïcode");
  });

  it("is nothing for bytes without it, or that are no message", () => {
    expect(requestName(new Uint8Array())).toBeUndefined();
    expect(requestName(new Uint8Array([0x10, 0x05]))).toBeUndefined(); // field 2 only
    expect(requestName(new Uint8Array([0x0a, 0x7f, 0x41]))).toBeUndefined(); // length past the end
    expect(requestName(new Uint8Array([0x0a, 0x02, 0xc3, 0x28]))).toBeUndefined(); // not UTF-8
    expect(requestName(new Uint8Array([0x08, 0xff]))).toBeUndefined(); // varint cut short
    expect(requestName(new Uint8Array([0x0b]))).toBeUndefined(); // a group
    expect(requestName(new Uint8Array([0x08, 0x96, 0x01]))).toBeUndefined(); // field 1 as a number
    // A ten-byte varint (a negative int64) elsewhere does not hide the name.
    expect(requestName(new Uint8Array([0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x0a, 0x01, 0x61]))).toBe("a");
  });
});
