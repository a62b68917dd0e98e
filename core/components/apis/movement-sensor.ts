// The movement sensor API: velocities, heading, orientation, position and acceleration.
import type { ReadingsSource } from "../../resource/index.js";
import type { Commandable, Extra } from "./commandable.js";

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

/** An orientation vector; theta in degrees. */
export interface Orientation {
  oX: number;
  oY: number;
  oZ: number;
  theta: number;
}

/** WGS84, degrees. */
export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export interface GeoPosition {
  coordinate: GeoPoint;
  altitudeM: number;
}

export interface MovementSensorProperties {
  linearVelocitySupported: boolean;
  angularVelocitySupported: boolean;
  orientationSupported: boolean;
  positionSupported: boolean;
  compassHeadingSupported: boolean;
  linearAccelerationSupported: boolean;
}

export interface MovementSensor extends Commandable, ReadingsSource {
  /** Metres per second. */
  getLinearVelocity(extra?: Extra): Promise<Vector3>;
  /** Degrees per second. */
  getAngularVelocity(extra?: Extra): Promise<Vector3>;
  /** Degrees clockwise from north, 0 to 360. */
  getCompassHeading(extra?: Extra): Promise<number>;
  getOrientation(extra?: Extra): Promise<Orientation>;
  getPosition(extra?: Extra): Promise<GeoPosition>;
  getProperties(extra?: Extra): Promise<MovementSensorProperties>;
  /** Accuracy figures by name. */
  getAccuracy(extra?: Extra): Promise<Record<string, number>>;
  /** Metres per second squared. */
  getLinearAcceleration(extra?: Extra): Promise<Vector3>;
}
