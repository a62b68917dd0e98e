// A power sensor served elsewhere, through viam.component.powersensor.v1.PowerSensorService.
import { createClient, type Transport } from "@connectrpc/connect";
import type { PowerSensor, ResourceName } from "../../../core/index.js";
import { PowerSensorService } from "../../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import { createRemoteCaller, remoteDoCommand, remoteGetReadings } from "./remote-caller.js";

export function createRemotePowerSensor(name: ResourceName, transport: Transport): PowerSensor {
  const client = createClient(PowerSensorService, transport);
  const caller = createRemoteCaller(name);
  const target = caller.target;
  return {
    name,
    getVoltage: (extra) =>
      caller.call("GetVoltage", async () => {
        const answer = await client.getVoltage({ name: target, extra: caller.extra(extra) });
        return { volts: answer.volts, isAc: answer.isAc };
      }),
    getCurrent: (extra) =>
      caller.call("GetCurrent", async () => {
        const answer = await client.getCurrent({ name: target, extra: caller.extra(extra) });
        return { amperes: answer.amperes, isAc: answer.isAc };
      }),
    getPower: (extra) => caller.call("GetPower", async () => (await client.getPower({ name: target, extra: caller.extra(extra) })).watts),
    getReadings: remoteGetReadings(caller, client),
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
