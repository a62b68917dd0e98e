// The fake navigation and SLAM services as models, on a manual clock: waypoint ids shaped as
// ObjectIDs (the clock's seconds, a mark of the instance, a counter), the bound on waypoints kept,
// and the SLAM fake's lap of 24 maps, the last holding every point of the room and the next
// starting the lap again.
import { afterEach, describe, expect, it } from "vitest";
import { Code } from "../../core/errors/index.js";
import { builtinNavigationModel, fakeNavigationModel, fakeSlamModel, MAX_WAYPOINTS, type Navigation, type Slam } from "../../core/services/index.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

const models = { models: [fakeNavigationModel, fakeSlamModel] } as Parameters<typeof createTestMachine>[1];
const NAVIGATION = "rdk:service:navigation";
const SLAM = "rdk:service:slam";
const somewhere = { latitude: 1, longitude: 2 };

describe("the fake navigation service's waypoint ids", () => {
  it("are 24 hexadecimal digits: the clock's seconds, a mark of the instance and a counter", async () => {
    machine = createTestMachine({}, models);
    machine.clock.advance(41_000);
    const nav = await machine.build<Navigation>(entry(NAVIGATION, "nav"));
    await nav.addWaypoint(somewhere);
    machine.clock.advance(1_000);
    await nav.addWaypoint(somewhere);
    const [a, b] = (await nav.getWaypoints()).map((w) => w.id);
    expect(a).toMatch(/^0000002a[0-9a-f]{10}000001$/);
    expect(b).toMatch(/^0000002b[0-9a-f]{10}000002$/);
    expect(a!.slice(8, 18)).toBe(b!.slice(8, 18));
  });

  it("differ between instances made at the same moment, so one never removes another's", async () => {
    machine = createTestMachine({}, models);
    const one = await machine.build<Navigation>(entry(NAVIGATION, "one"));
    const two = await machine.build<Navigation>(entry(NAVIGATION, "two"));
    await one.addWaypoint(somewhere);
    await two.addWaypoint(somewhere);
    const [idOne] = (await one.getWaypoints()).map((w) => w.id);
    const [idTwo] = (await two.getWaypoints()).map((w) => w.id);
    expect(idOne).not.toBe(idTwo);
    await two.removeWaypoint(idOne!);
    expect(await two.getWaypoints()).toHaveLength(1);
  });
});

describe("the fake navigation service's waypoints", () => {
  it("are kept up to a bound, past which adding one is RESOURCE_EXHAUSTED until one is removed", async () => {
    machine = createTestMachine({}, models);
    const nav = await machine.build<Navigation>(entry(NAVIGATION, "nav"));
    for (let i = 0; i < MAX_WAYPOINTS; i++) await nav.addWaypoint(somewhere);
    await expect(nav.addWaypoint(somewhere)).rejects.toMatchObject({
      code: Code.ResourceExhausted,
      message: `rdk:service:navigation/nav holds ${MAX_WAYPOINTS} waypoints, the most it keeps: remove some first`,
    });
    const [first] = await nav.getWaypoints();
    await nav.removeWaypoint(first!.id.toUpperCase());
    await nav.addWaypoint({ latitude: 3, longitude: 4 });
    const all = await nav.getWaypoints();
    expect(all).toHaveLength(MAX_WAYPOINTS);
    expect(all.at(-1)?.location).toEqual({ latitude: 3, longitude: 4 });
  });
});

/** The point count a PCD header states, and its points' x and y. */
function pcdPoints(bytes: Uint8Array): Array<[number, number]> {
  const text = Buffer.from(bytes).toString("latin1");
  const end = text.indexOf("DATA binary\n") + "DATA binary\n".length;
  const count = Number(/POINTS (\d+)/.exec(text)![1]);
  const view = new DataView(bytes.buffer, bytes.byteOffset + end);
  return Array.from({ length: count }, (_, i) => [view.getFloat32(i * 16, true), view.getFloat32(i * 16 + 4, true)]);
}

describe("the fake SLAM service's lap", () => {
  it("grows the map a 24th at a time to the whole room, then starts again, the position going round with it", async () => {
    machine = createTestMachine({}, models);
    const slam = await machine.build<Slam>(entry(SLAM, "slam", { map_points: 480 }));
    const sizes: number[] = [];
    let last: Array<[number, number]> = [];
    for (let step = 0; step < 24; step++) {
      last = pcdPoints(await slam.getPointCloudMap());
      sizes.push(last.length);
    }
    expect(sizes).toEqual(Array.from({ length: 24 }, (_, k) => 20 * (k + 1)));
    // The whole room: every wall, evenly, 26 m of wall at 480 points.
    expect(last.filter(([x]) => Math.abs(x - 4) < 1e-5)).toHaveLength(92);
    expect(last.filter(([, y]) => Math.abs(y - 2.5) < 1e-5)).toHaveLength(148);
    const before = await slam.getPosition();
    expect(before.x).toBeCloseTo(2500 * Math.cos((23 * Math.PI) / 12), 6);
    expect(pcdPoints(await slam.getPointCloudMap())).toHaveLength(20);
    expect(await slam.getPosition()).toEqual({ x: 2500, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 90 });
    expect(JSON.parse(Buffer.from(await slam.getInternalState()).toString("utf8"))).toMatchObject({ step: 0, map_points: 480 });
  });
});

describe("Viam's builtin navigation, as configurations written for viam-server name it", () => {
  // The navigation entry of Viam's fake-hardware configuration, key for key.
  const viams = {
    store: { type: "memory" },
    movement_sensor: "imu1",
    base: "base1",
    obstacles: [
      { location: { latitude: 40.6705209, longitude: -73.9659182 }, geometries: [{ r: 2000 }] },
      { location: { latitude: 40.6759, longitude: -73.958847 }, geometries: [{ type: "capsule", r: 50000, l: 300000, translation: { x: 0, y: 0, z: 0 } }] },
      { location: { latitude: 40, longitude: -74.7 }, geometries: [{ type: "box", x: 50000, y: 50000, z: 50000 }] },
    ],
  };
  const validate = (attributes: Record<string, unknown>) =>
    builtinNavigationModel.validate!({ name: "nav", api: NAVIGATION, model: "rdk:builtin:builtin", attributes, depends_on: [] }, "services[0]");

  it("takes its attributes, depends on its base and movement sensor, and infers a geometry's shape from its sizes", () => {
    expect(validate(viams)).toEqual({ issues: [], dependencies: ["base1", "imu1"] });
  });

  it("keeps waypoints in memory only, and says so for another store", () => {
    const { issues = [] } = validate({ ...viams, store: { type: "mongodb" } });
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      ["services[0].attributes.store.type", 'must be "memory": waypoints are kept in memory (found "mongodb")'],
    ]);
  });

  it("refuses a geometry whose sizes say no shape", () => {
    const obstacles = [{ location: { latitude: 1, longitude: 2 }, geometries: [{ label: "nothing" }] }];
    expect((validate({ obstacles }).issues ?? []).map((i) => i.path)).toEqual(["services[0].attributes.obstacles[0].geometries[0].type"]);
  });
});
