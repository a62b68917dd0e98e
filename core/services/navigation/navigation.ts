// The navigation service API: the machine's mode, where it is on the globe, the waypoints it is to
// visit (each with the id the service gave it), the obstacles it knows and the paths it plans.
import type { Commandable, Extra, GeoPoint } from "../../components/index.js";

/** Manual: the machine waits. Waypoint: it heads for its waypoints in turn. Explore: it roams. */
export type NavigationMode = "manual" | "waypoint" | "explore";

/** What the service navigates on: the globe (a GPS position) or no map at all. */
export type NavigationMapType = "gps" | "none";

export interface Waypoint {
  /** Made by the service when the waypoint is added. */
  id: string;
  location: GeoPoint;
}

export interface NavigationLocation {
  location: GeoPoint;
  /** Degrees clockwise from north, in [0, 360). */
  compassHeading: number;
}

/** A shape centred on its obstacle's location, in millimetres. */
export type ObstacleShape =
  | { kind: "box"; xMm: number; yMm: number; zMm: number }
  | { kind: "sphere"; radiusMm: number }
  | { kind: "capsule"; radiusMm: number; lengthMm: number };

export interface GeoObstacle {
  location: GeoPoint;
  geometries: Array<{ shape: ObstacleShape; label: string }>;
}

export interface NavigationPath {
  destinationWaypointId: string;
  /** Where the machine starts from first, the waypoint last. */
  geopoints: GeoPoint[];
}

export interface Navigation extends Commandable {
  getMode(extra?: Extra): Promise<NavigationMode>;
  setMode(mode: NavigationMode, extra?: Extra): Promise<void>;
  getLocation(extra?: Extra): Promise<NavigationLocation>;
  /** The waypoints not yet visited, in the order they were added. */
  getWaypoints(extra?: Extra): Promise<Waypoint[]>;
  addWaypoint(location: GeoPoint, extra?: Extra): Promise<void>;
  /** Removing a waypoint that is not there is no error, as with Viam's stores. */
  removeWaypoint(id: string, extra?: Extra): Promise<void>;
  getObstacles(extra?: Extra): Promise<GeoObstacle[]>;
  getPaths(extra?: Extra): Promise<NavigationPath[]>;
  getProperties(): Promise<{ mapType: NavigationMapType }>;
}
