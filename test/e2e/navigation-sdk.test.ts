// The navigation service on the real svc-server, through the official SDK's NavigationClient: the
// fake keeps its mode and its waypoints (ids shaped as ObjectIDs, made by the service), reports
// its configured location, obstacles and map type, plans the straight way to the first waypoint
// in waypoint mode, and keeps its waypoints across a changed configuration while going back to
// manual mode. Requests it cannot mean are INVALID_ARGUMENT naming the field; what its map type
// forbids is FAILED_PRECONDITION.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NavigationService } from "../../proto/gen/service/navigation/v1/navigation_pb.js";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const { Mode, MapType } = VIAM.navigationApi;
const NAVIGATION = "rdk:service:navigation";

const berlin = { latitude: 52.52, longitude: 13.405 };
const crate = { type: "box", x: 1000, y: 2000, z: 500, label: "crate" };
const obstacle = { location: { latitude: 52.5201, longitude: 13.4051 }, geometries: [crate, { type: "sphere", r: 300 }, { type: "capsule", r: 100, l: 800 }] };

const config = (location = berlin) => ({
  services: [
    { name: "nav", api: NAVIGATION, model: "fake", attributes: { location, compass_heading: 90, obstacles: [obstacle] } },
    { name: "plain", api: NAVIGATION, model: "fake" },
    { name: "nomap", api: NAVIGATION, model: "fake", attributes: { map_type: "None" } },
  ],
});

describe("a navigation service through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;
  const nav = (name = "nav") => new VIAM.NavigationClient(robot, name);

  beforeAll(async () => {
    server = await startSvcServer(config());
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("is READY and listed in ResourceRPCSubtypes with its service", async () => {
    const status = await robot.getMachineStatus();
    const states = Object.fromEntries(status.resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
    expect(states).toMatchObject({ [`${NAVIGATION}/nav`]: "READY", [`${NAVIGATION}/plain`]: "READY", [`${NAVIGATION}/nomap`]: "READY" });
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      `${NAVIGATION} viam.service.navigation.v1.NavigationService`,
    );
  });

  it("reports its configured location and heading, or the documented default", async () => {
    const at = await nav().getLocation();
    expect([at.location?.latitude, at.location?.longitude, at.compassHeading]).toEqual([52.52, 13.405, 90]);
    const plain = await nav("plain").getLocation();
    expect([plain.location?.latitude, plain.location?.longitude, plain.compassHeading]).toEqual([40.7, -73.98, 25]);
  });

  it("starts in manual mode and keeps the mode it is set to", async () => {
    expect(await nav("plain").getMode()).toBe(Mode.MANUAL);
    await nav("plain").setMode(Mode.WAYPOINT);
    expect(await nav("plain").getMode()).toBe(Mode.WAYPOINT);
    await nav("plain").setMode(Mode.EXPLORE);
    expect(await nav("plain").getMode()).toBe(Mode.EXPLORE);
    await expect(nav("plain").setMode(Mode.UNSPECIFIED)).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining("mode: must be MODE_MANUAL, MODE_WAYPOINT or MODE_EXPLORE, not MODE_UNSPECIFIED"),
    });
    expect(await nav("plain").getMode()).toBe(Mode.EXPLORE);
  });

  it("adds waypoints with ids it makes, lists them in order and removes them by id", async () => {
    await nav().addWayPoint({ latitude: 52.53, longitude: 13.41 });
    await nav().addWayPoint({ latitude: 52.54, longitude: 13.42 });
    const waypoints = await nav().getWayPoints();
    expect(waypoints.map((w) => [w.location?.latitude, w.location?.longitude])).toEqual([
      [52.53, 13.41],
      [52.54, 13.42],
    ]);
    for (const w of waypoints) expect(w.id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(waypoints.map((w) => w.id)).size).toBe(2);
    await nav().removeWayPoint(waypoints[0]!.id);
    expect((await nav().getWayPoints()).map((w) => w.id)).toEqual([waypoints[1]!.id]);
    // As with Viam's stores, removing a waypoint that is not there is no error.
    await nav().removeWayPoint(waypoints[0]!.id);
    expect((await nav().getWayPoints()).map((w) => w.id)).toEqual([waypoints[1]!.id]);
    // Another service's waypoints are its own.
    expect(await nav("plain").getWayPoints()).toEqual([]);
  });

  it("plans the straight way from its location to the first waypoint in waypoint mode only", async () => {
    const [first] = await nav().getWayPoints();
    expect(await nav().getPaths()).toEqual([]);
    await nav().setMode(Mode.WAYPOINT);
    const paths = await nav().getPaths();
    expect(paths.map((p) => [p.destinationWaypointId, p.geopoints.map((g) => [g.latitude, g.longitude])])).toEqual([
      [first!.id, [[52.52, 13.405], [first!.location!.latitude, first!.location!.longitude]]],
    ]);
  });

  it("refuses a waypoint off the globe, a missing one and an id that is not one, naming the field", async () => {
    await expect(nav().addWayPoint({ latitude: 91, longitude: 0 })).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining("location.latitude: must be between -90 and 90"),
    });
    // The SDK always sends a location; a client of the bare descriptor may not.
    const raw = createClient(NavigationService, createGrpcTransport({ baseUrl: server.url }));
    await expect(raw.addWaypoint({ name: "nav" })).rejects.toMatchObject({ code: 3, message: expect.stringContaining("location: required") });
    await expect(nav().removeWayPoint("nope")).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining('id: "nope" is not a waypoint id (24 hexadecimal digits)'),
    });
  });

  it("reports its configured obstacles with their shapes and the GPS map type", async () => {
    const [found] = await nav().getObstacles();
    expect([found?.location?.latitude, found?.location?.longitude]).toEqual([52.5201, 13.4051]);
    const shapes = found?.geometries.map((g) => [g.label, g.geometryType.case, g.geometryType.value?.toJson()]);
    expect(shapes).toEqual([
      ["crate", "box", { dimsMm: { x: 1000, y: 2000, z: 500 } }],
      ["", "sphere", { radiusMm: 300 }],
      ["", "capsule", { radiusMm: 100, lengthMm: 800 }],
    ]);
    expect(found?.geometries[0]?.center?.oZ).toBe(1);
    expect(await nav("plain").getObstacles()).toEqual([]);
    expect((await nav().getProperties()).mapType).toBe(MapType.GPS);
  });

  it("without a map has no location and no waypoint mode, and says so", async () => {
    expect((await nav("nomap").getProperties()).mapType).toBe(MapType.NONE);
    await expect(nav("nomap").getLocation()).rejects.toMatchObject({
      code: 9,
      message: expect.stringContaining(`${NAVIGATION}/nomap has no location: its map_type is None`),
    });
    await expect(nav("nomap").setMode(Mode.WAYPOINT)).rejects.toMatchObject({
      code: 9,
      message: expect.stringContaining("waypoint mode is unavailable with map_type None"),
    });
    await nav("nomap").setMode(Mode.EXPLORE);
    expect(await nav("nomap").getMode()).toBe(Mode.EXPLORE);
  });

  it("echoes DoCommand and answers NOT_FOUND for a service not configured", async () => {
    expect(await nav().doCommand(VIAM.Struct.fromJson({ go: "north" }))).toEqual({ go: "north" });
    await expect(nav("ghost").getMode()).rejects.toMatchObject({ code: 5 });
  });

  it("keeps its waypoints across a changed configuration, back in manual mode at the new location", async () => {
    const before = await nav().getWayPoints();
    expect(await nav().getMode()).toBe(Mode.WAYPOINT);
    server.writeConfig(config({ latitude: 48.8566, longitude: 2.3522 }));
    await eventually(async () => ((await nav().getLocation()).location?.latitude === 48.8566 ? true : undefined), "the new location");
    expect(await nav().getWayPoints()).toEqual(before);
    expect(await nav().getMode()).toBe(Mode.MANUAL);
  });
});
