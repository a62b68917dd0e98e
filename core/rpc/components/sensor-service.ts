// viam.component.sensor.v1.SensorService: readings by name, DoCommand.
import type { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { SENSOR_API } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { doCommandMethod, geometriesUnsupportedMethod, readingsMethod } from "./shared-methods.js";

export function createSensorService(lookup: ResourceLookup): ServiceHandlers<typeof SensorService> {
  return {
    getReadings: readingsMethod(lookup, SENSOR_API),
    doCommand: doCommandMethod(lookup, SENSOR_API),
    getGeometries: geometriesUnsupportedMethod(lookup, SENSOR_API),
  };
}
