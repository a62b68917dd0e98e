// What a remote lists, read within bounds (remote-listing.ts): names through remotes of remotes and
// with the remote's prefix, each keeping the name the remote resolves; nothing twice, no default
// service; at most 1,000 resources and names of at most 256 characters, what is left out said in
// words; bytes that are no answer refused. Also the reconnect backoff (growing, capped, jittered)
// and the collisions between a remote's names and others, each with its fix.
import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ResourceNamesResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { createReconnectBackoff, findCollisions, MAX_LISTED_RESOURCES, readListing, RECONNECT_MAX_MS } from "../../targets/linux/remote-parts/index.js";

type Listed = { subtype: string; name: string; remotePath?: string[]; type?: string };

const answer = (resources: Listed[]) =>
  toBinary(
    ResourceNamesResponseSchema,
    create(ResourceNamesResponseSchema, {
      resources: resources.map((r) => ({ namespace: "rdk", type: r.type ?? "component", subtype: r.subtype, name: r.name, remotePath: r.remotePath ?? [] })),
    }),
  );

describe("a remote's listing", () => {
  it("names each resource here by the remote, the parts between and its prefixed name, keeping the name the remote resolves", () => {
    const listing = readListing(
      answer([
        { subtype: "sensor", name: "temp" },
        { subtype: "motor", name: "left", remotePath: ["arm-pi"] },
        { subtype: "motion", type: "service", name: "builtin" },
        { subtype: "sensor", name: "temp" },
      ]),
      { name: "pi", prefix: "pi-" },
    );
    expect(listing).toEqual({
      resources: [
        { api: "rdk:component:sensor", name: "pi:pi-temp", remoteName: "temp" },
        { api: "rdk:component:motor", name: "pi:arm-pi:pi-left", remoteName: "arm-pi:left" },
      ],
      leftOut: [],
    });
  });

  it("joins at most 1,000 resources and no name it cannot carry, saying what it left out", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ subtype: "sensor", name: `s${i}` }));
    const odd = [{ subtype: "sensor", name: "x".repeat(300) }, { subtype: "sensor", name: "has space" }, { subtype: "sensor", name: "ok", remotePath: ["a:b"] }];
    const listing = readListing(answer([...odd, ...many]), { name: "big", prefix: "" });
    expect(listing.resources).toHaveLength(MAX_LISTED_RESOURCES);
    expect(listing.leftOut).toEqual([
      "it lists 10000 resources; the first 1000 are joined",
      '3 of its resources have names this machine cannot carry (letters, digits, "_" and "-", at most 256 characters) and are not joined',
    ]);
  });

  it("joins nothing reached through more than 8 parts, as remotes joined in a loop would list", () => {
    const loop = Array.from({ length: 9 }, (_, i) => (i % 2 ? "a" : "b"));
    const listing = readListing(answer([{ subtype: "sensor", name: "x", remotePath: loop }, { subtype: "sensor", name: "y", remotePath: loop.slice(0, 7) }]), { name: "a", prefix: "" });
    expect(listing.resources.map((r) => r.remoteName)).toEqual([`${loop.slice(0, 7).join(":")}:y`]);
    expect(listing.leftOut).toEqual(["1 of its resources come through more than 8 parts (remotes joined in a loop?) and are not joined"]);
  });

  it("refuses bytes that are no ResourceNames answer", () => {
    expect(() => readListing(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]), { name: "pi", prefix: "" })).toThrow();
  });
});

describe("the reconnect backoff", () => {
  it("starts at the interval, doubles, stops at the cap, and moves each wait by at most a fifth", () => {
    const middle = createReconnectBackoff(1000, () => 0.5);
    expect(Array.from({ length: 7 }, () => middle.next())).toEqual([1000, 2000, 4000, 8000, RECONNECT_MAX_MS, RECONNECT_MAX_MS, RECONNECT_MAX_MS]);
    middle.reset();
    expect(middle.next()).toBe(1000);
    expect(createReconnectBackoff(1000, () => 0).next()).toBe(800);
    expect(createReconnectBackoff(1000, () => 0.999999).next()).toBe(1200);
    expect(createReconnectBackoff(60_000, () => 0.5).next()).toBe(60_000);
  });
});

describe("name collisions", () => {
  it("name the remote's resource that takes another's simple name, with the fix", () => {
    const configured = [{ name: "temp", api: "rdk:component:sensor", model: "rdk:builtin:fake", attributes: {}, depends_on: [] }];
    const found = findCollisions(configured, [
      { remote: "pi", resources: [{ api: "rdk:component:sensor", name: "pi:temp", remoteName: "temp" }, { api: "rdk:component:motor", name: "pi:temp", remoteName: "temp" }] },
      { remote: "lab", resources: [{ api: "rdk:component:motor", name: "lab:temp", remoteName: "temp" }] },
    ]);
    expect(Object.fromEntries(found)).toEqual({
      pi: [
        'rdk:component:sensor/pi:temp has the name of the configured rdk:component:sensor/temp, which keeps it; it is reached only as "pi:temp": rename it, or give remote pi a prefix',
      ],
      lab: [
        'rdk:component:motor/lab:temp has the name of rdk:component:motor/pi:temp of remote pi; "temp" alone reaches neither, "pi:temp" and "lab:temp" do: rename one, or give remote lab a prefix',
      ],
    });
  });
});
