// A sensor's, power sensor's or movement sensor's readings, read again every second.
import { MovementSensorClient, PowerSensorClient, SensorClient, type RobotClient } from "@viamrobotics/sdk";
import { Problem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";
import { shownValue } from "./shown-value.js";

const READ_EVERY_MS = 1000;

export function ReadingsControls(props: { robot: RobotClient; api: string; name: string }) {
  const { robot, api, name } = props;
  const readings = usePolled(() => clientOf(robot, api, name).getReadings(), READ_EVERY_MS, [robot, api, name]);
  return (
    <>
      <Problem text={readings.problem} />
      <table class="readings" aria-label={`${name} readings`}>
        <tbody>
          {Object.entries(readings.answer ?? {}).map(([key, value]) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td>{shownValue(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function clientOf(robot: RobotClient, api: string, name: string) {
  if (api === "rdk:component:power_sensor") return new PowerSensorClient(robot, name);
  if (api === "rdk:component:movement_sensor") return new MovementSensorClient(robot, name);
  return new SensorClient(robot, name);
}
