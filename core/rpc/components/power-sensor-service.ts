// viam.component.powersensor.v1.PowerSensorService: volts, amperes (each saying whether AC),
// watts, readings, DoCommand.
import type { PowerSensorService } from "../../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import { POWER_SENSOR_API, type PowerSensor } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, readingsMethod } from "./shared-methods.js";

export function createPowerSensorService(lookup: ResourceLookup): ServiceHandlers<typeof PowerSensorService> {
  const sensor = (name: string, method: keyof PowerSensor & string, rpc: string) =>
    resolve<PowerSensor>(lookup, POWER_SENSOR_API, name, method, rpc);
  return {
    async getVoltage(request) {
      const v = await sensor(request.name, "getVoltage", "GetVoltage").getVoltage(request.extra);
      return { volts: v.volts, isAc: v.isAc };
    },
    async getCurrent(request) {
      const c = await sensor(request.name, "getCurrent", "GetCurrent").getCurrent(request.extra);
      return { amperes: c.amperes, isAc: c.isAc };
    },
    async getPower(request) {
      return { watts: await sensor(request.name, "getPower", "GetPower").getPower(request.extra) };
    },
    getReadings: readingsMethod(lookup, POWER_SENSOR_API),
    doCommand: doCommandMethod(lookup, POWER_SENSOR_API),
  };
}
