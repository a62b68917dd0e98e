// A servo: its angle, read again twice a second, and moving it to another.
import { ServoClient, type RobotClient } from "@viamrobotics/sdk";
import { useState } from "preact/hooks";
import { Problem, useProblem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";

export function ServoControls(props: { robot: RobotClient; name: string }) {
  const { robot, name } = props;
  const servo = new ServoClient(robot, name);
  const [angle, setAngle] = useState("90");
  const [problem, run] = useProblem();
  const position = usePolled(() => servo.getPosition(), 500, [robot, name]);
  return (
    <>
      <p>
        Angle <output aria-label={`${name} angle`}>{position.answer ?? "…"}</output>°
      </p>
      <div class="row">
        <label>
          Angle (degrees)
          <input type="number" min="0" max="180" value={angle} onInput={(e) => setAngle(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={() => run(servo.move(Number(angle)))}>
          Move
        </button>
      </div>
      <Problem text={problem || position.problem} />
    </>
  );
}
