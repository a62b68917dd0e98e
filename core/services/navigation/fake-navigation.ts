// The fake navigation service (rdk:builtin:fake): it keeps a mode and a list of waypoints as
// Viam's navigation service with a memory store does, and reports a fixed location and the
// obstacles its attributes give, but never moves. In waypoint mode it plans the straight way
// from its location to the first waypoint. A changed configuration keeps the waypoints and
// returns the service to manual mode, as Viam's does. It keeps at most 10,000 waypoints.
import { BUILTIN_MODEL, FAKE_MODEL, failOnIssues, NAVIGATION_API, type GeoPoint } from "../../components/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type BuildContext, type ModelRegistration } from "../../resource/index.js";
import { fakeNavigationAttributesSchema, readFakeNavigationAttributes, type FakeNavigationAttributes } from "./fake-navigation-attributes.js";
import type { GeoObstacle, Navigation, NavigationMode, Waypoint } from "./navigation.js";
import { createWaypointIds } from "./waypoint-id.js";

/** The modes a map type allows, as Viam's navigation service allows them. */
const modesOf: Record<FakeNavigationAttributes["mapType"], readonly NavigationMode[]> = {
  gps: ["manual", "waypoint", "explore"],
  none: ["manual", "explore"],
};

// A client adding waypoints without end must not fill the machine's memory.
export const MAX_WAYPOINTS = 10_000;

/** The fake's own methods beyond the API: taking a changed configuration in place. */
interface FakeNavigation extends Navigation {
  apply(attributes: FakeNavigationAttributes): void;
}

const copyPoint = (p: GeoPoint): GeoPoint => ({ latitude: p.latitude, longitude: p.longitude });

const copyObstacle = (o: GeoObstacle): GeoObstacle => ({
  location: copyPoint(o.location),
  geometries: o.geometries.map((g) => ({ shape: { ...g.shape }, label: g.label })),
});

function attributesOf(ctx: BuildContext): FakeNavigationAttributes {
  const builtin = ctx.config.model === BUILTIN_MODEL;
  const { value, issues } = readFakeNavigationAttributes(ctx.config.attributes, formatResourceName(ctx.name), builtin);
  failOnIssues(issues);
  return value;
}

function buildFakeNavigation(ctx: BuildContext): FakeNavigation {
  const who = formatResourceName(ctx.name);
  let settings = attributesOf(ctx);
  let mode: NavigationMode = "manual";
  let waypoints: Waypoint[] = [];
  const nextId = createWaypointIds({ now: () => ctx.clock.now(), instance: `${who}@${ctx.clock.now()}` });

  const locationOrFail = () => {
    if (settings.mapType === "none") throw new SvcError(Code.FailedPrecondition, `${who} has no location: its map_type is None`);
    return copyPoint(settings.location);
  };

  return {
    name: ctx.name,
    apply(next) {
      settings = next;
      mode = "manual";
    },
    async getMode() {
      return mode;
    },
    async setMode(next) {
      if (!modesOf[settings.mapType].includes(next)) {
        throw new SvcError(Code.FailedPrecondition, `${who}: ${next} mode is unavailable with map_type ${settings.mapType === "gps" ? "GPS" : "None"}`);
      }
      mode = next;
    },
    async getLocation() {
      return { location: locationOrFail(), compassHeading: settings.compassHeading };
    },
    async getWaypoints() {
      return waypoints.map((w) => ({ id: w.id, location: copyPoint(w.location) }));
    },
    async addWaypoint(location) {
      if (waypoints.length >= MAX_WAYPOINTS) {
        throw new SvcError(Code.ResourceExhausted, `${who} holds ${MAX_WAYPOINTS} waypoints, the most it keeps: remove some first`);
      }
      waypoints.push({ id: nextId(), location: copyPoint(location) });
    },
    async removeWaypoint(id) {
      waypoints = waypoints.filter((w) => w.id.toLowerCase() !== id.toLowerCase());
    },
    async getObstacles() {
      return settings.obstacles.map(copyObstacle);
    },
    async getPaths() {
      const next = waypoints[0];
      if (mode !== "waypoint" || next === undefined) return [];
      return [{ destinationWaypointId: next.id, geopoints: [locationOrFail(), copyPoint(next.location)] }];
    },
    async getProperties() {
      return { mapType: settings.mapType };
    },
    async doCommand(command) {
      return command;
    },
    async close() {},
  };
}

/**
 * Viam's builtin navigation, as configurations written for viam-server name it (a service's
 * model when none is given): the fake's behaviour, taking the builtin's attributes. Its `base`
 * and `movement_sensor` are dependencies; waypoints are kept in memory; it plans a straight
 * path and does not drive the base.
 */
export const builtinNavigationModel: ModelRegistration<FakeNavigation> = {
  api: NAVIGATION_API,
  model: BUILTIN_MODEL,
  attributesSchema: fakeNavigationAttributesSchema,
  validate(config, path) {
    const { issues, dependencies } = readFakeNavigationAttributes(config.attributes, path, true);
    return { issues, dependencies };
  },
  async build(ctx) {
    return buildFakeNavigation(ctx);
  },
  async reconfigure(resource, ctx) {
    resource.apply(attributesOf(ctx));
  },
};

export const fakeNavigationModel: ModelRegistration<FakeNavigation> = {
  api: NAVIGATION_API,
  model: FAKE_MODEL,
  attributesSchema: fakeNavigationAttributesSchema,
  validate(config, path) {
    return { issues: readFakeNavigationAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    return buildFakeNavigation(ctx);
  },
  async reconfigure(resource, ctx) {
    resource.apply(attributesOf(ctx));
  },
};
