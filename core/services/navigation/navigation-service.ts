// viam.service.navigation.v1.NavigationService: the mode (get and set), the location and compass
// heading, the waypoints (list, add, remove by id), obstacles, planned paths, the map type, and
// DoCommand. A mode or an id a request cannot mean is INVALID_ARGUMENT, naming the field.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GeometrySchema } from "../../../proto/gen/common/v1/common_pb.js";
import { MapType, Mode, type NavigationService } from "../../../proto/gen/service/navigation/v1/navigation_pb.js";
import { NAVIGATION_API, type GeoPoint } from "../../components/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { doCommandMethod, resolveResource, type ResourceLookup, type ServiceHandlers } from "../../rpc/index.js";
import type { GeoObstacle, Navigation, NavigationMode } from "./navigation.js";
import { isWaypointId } from "./waypoint-id.js";

const toWire: Record<NavigationMode, Mode> = { manual: Mode.MANUAL, waypoint: Mode.WAYPOINT, explore: Mode.EXPLORE };
const fromWire: Partial<Record<Mode, NavigationMode>> = { [Mode.MANUAL]: "manual", [Mode.WAYPOINT]: "waypoint", [Mode.EXPLORE]: "explore" };

const point = (p: GeoPoint) => ({ latitude: p.latitude, longitude: p.longitude });

/** A shape centred on its obstacle's location, unturned. */
function geometry(g: GeoObstacle["geometries"][number]): MessageInitShape<typeof GeometrySchema> {
  const center = { x: 0, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 0 };
  const s = g.shape;
  if (s.kind === "box") return { center, label: g.label, geometryType: { case: "box", value: { dimsMm: { x: s.xMm, y: s.yMm, z: s.zMm } } } };
  if (s.kind === "sphere") return { center, label: g.label, geometryType: { case: "sphere", value: { radiusMm: s.radiusMm } } };
  return { center, label: g.label, geometryType: { case: "capsule", value: { radiusMm: s.radiusMm, lengthMm: s.lengthMm } } };
}

/** A point a client sends: on the globe, or refused naming the field. */
function requestedPoint(p: GeoPoint | undefined, field: string): GeoPoint {
  if (p === undefined) throw new SvcError(Code.InvalidArgument, `${field}: required`);
  if (!(Math.abs(p.latitude) <= 90)) throw new SvcError(Code.InvalidArgument, `${field}.latitude: must be between -90 and 90`);
  if (!(Math.abs(p.longitude) <= 180)) throw new SvcError(Code.InvalidArgument, `${field}.longitude: must be between -180 and 180`);
  return point(p);
}

export function createNavigationService(lookup: ResourceLookup): ServiceHandlers<typeof NavigationService> {
  const nav = (name: string, method: keyof Navigation & string, rpc: string) => resolveResource<Navigation>(lookup, NAVIGATION_API, name, method, rpc);
  return {
    async getMode(request) {
      return { mode: toWire[await nav(request.name, "getMode", "GetMode").getMode(request.extra)] };
    },
    async setMode(request) {
      const service = nav(request.name, "setMode", "SetMode");
      const mode = fromWire[request.mode];
      if (mode === undefined) {
        const given = Mode[request.mode] === undefined ? String(request.mode) : `MODE_${Mode[request.mode]}`;
        throw new SvcError(Code.InvalidArgument, `mode: must be MODE_MANUAL, MODE_WAYPOINT or MODE_EXPLORE, not ${given}`);
      }
      await service.setMode(mode, request.extra);
      return {};
    },
    async getLocation(request) {
      const at = await nav(request.name, "getLocation", "GetLocation").getLocation(request.extra);
      return { location: point(at.location), compassHeading: at.compassHeading };
    },
    async getWaypoints(request) {
      const waypoints = await nav(request.name, "getWaypoints", "GetWaypoints").getWaypoints(request.extra);
      return { waypoints: waypoints.map((w) => ({ id: w.id, location: point(w.location) })) };
    },
    async addWaypoint(request) {
      const service = nav(request.name, "addWaypoint", "AddWaypoint");
      await service.addWaypoint(requestedPoint(request.location, "location"), request.extra);
      return {};
    },
    async removeWaypoint(request) {
      const service = nav(request.name, "removeWaypoint", "RemoveWaypoint");
      if (!isWaypointId(request.id)) throw new SvcError(Code.InvalidArgument, `id: ${JSON.stringify(request.id)} is not a waypoint id (24 hexadecimal digits)`);
      await service.removeWaypoint(request.id, request.extra);
      return {};
    },
    async getObstacles(request) {
      const obstacles = await nav(request.name, "getObstacles", "GetObstacles").getObstacles(request.extra);
      return { obstacles: obstacles.map((o) => ({ location: point(o.location), geometries: o.geometries.map(geometry) })) };
    },
    async getPaths(request) {
      const paths = await nav(request.name, "getPaths", "GetPaths").getPaths(request.extra);
      return { paths: paths.map((p) => ({ destinationWaypointId: p.destinationWaypointId, geopoints: p.geopoints.map(point) })) };
    },
    async getProperties(request) {
      const { mapType } = await nav(request.name, "getProperties", "GetProperties").getProperties();
      return { mapType: mapType === "gps" ? MapType.GPS : MapType.NONE };
    },
    doCommand: doCommandMethod(lookup, NAVIGATION_API),
  };
}
