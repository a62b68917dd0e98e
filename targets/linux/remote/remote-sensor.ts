// A sensor served elsewhere, through viam.component.sensor.v1.SensorService.
import { createClient, type Transport } from "@connectrpc/connect";
import type { ResourceName, Sensor } from "../../../core/index.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { createRemoteCaller, remoteDoCommand, remoteGetReadings } from "./remote-caller.js";

export function createRemoteSensor(name: ResourceName, transport: Transport): Sensor {
  const client = createClient(SensorService, transport);
  const caller = createRemoteCaller(name);
  return {
    name,
    getReadings: remoteGetReadings(caller, client),
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
