// DoCommand for any resource: a JSON object sent as the command, the answer shown as JSON. A
// resource of an API the SDK has no client for is asked through the generic API.
import {
  BoardClient,
  CameraClient,
  EncoderClient,
  GenericComponentClient,
  GenericServiceClient,
  MotorClient,
  MovementSensorClient,
  PowerSensorClient,
  SensorClient,
  ServoClient,
  Struct,
  type JsonValue,
  type RobotClient,
} from "@viamrobotics/sdk";
import { useState } from "preact/hooks";
import { Problem, useProblem } from "../../../../web-ui/problem.js";
import type { ShownResource } from "./machine-status.js";

type Commanded = { doCommand(command: Struct): Promise<JsonValue> };

const CLIENTS: Record<string, new (robot: RobotClient, name: string) => Commanded> = {
  "rdk:component:board": BoardClient,
  "rdk:component:camera": CameraClient,
  "rdk:component:encoder": EncoderClient,
  "rdk:component:motor": MotorClient,
  "rdk:component:movement_sensor": MovementSensorClient,
  "rdk:component:power_sensor": PowerSensorClient,
  "rdk:component:sensor": SensorClient,
  "rdk:component:servo": ServoClient,
};

export function DoCommandBox(props: { robot: RobotClient; resource: ShownResource }) {
  const { robot, resource } = props;
  const [text, setText] = useState('{"command": "status"}');
  const [answer, setAnswer] = useState("");
  const [problem, run, setProblem] = useProblem();
  const send = () => {
    let command: Struct;
    try {
      command = Struct.fromJson(JSON.parse(text) as JsonValue);
    } catch (thrown) {
      return setProblem(`the command must be a JSON object: ${(thrown as Error).message}`);
    }
    const Client = CLIENTS[resource.api] ?? (resource.api.includes(":service:") ? GenericServiceClient : GenericComponentClient);
    run(new Client(robot, resource.name).doCommand(command), (value) => setAnswer(JSON.stringify(value, null, 2)));
  };
  return (
    <details class="do-command">
      <summary>DoCommand</summary>
      <label>
        Command (JSON)
        <textarea rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="button" onClick={send}>
        Send
      </button>
      {answer && <pre aria-label={`${resource.name} answer`}>{answer}</pre>}
      <Problem text={problem} />
    </details>
  );
}
