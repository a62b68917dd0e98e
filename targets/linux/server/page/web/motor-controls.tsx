// A motor: its position (read again twice a second) and whether it moves; set its power, go for a
// number of revolutions at an RPM, or stop it.
import { MotorClient, type RobotClient } from "@viamrobotics/sdk";
import { useState } from "preact/hooks";
import { Problem, useProblem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";

const READ_EVERY_MS = 500;

export function MotorControls(props: { robot: RobotClient; name: string }) {
  const { robot, name } = props;
  const motor = new MotorClient(robot, name);
  const [power, setPower] = useState("0.5");
  const [rpm, setRpm] = useState("60");
  const [revolutions, setRevolutions] = useState("2");
  const [problem, run] = useProblem();
  const state = usePolled(async () => ({ position: await motor.getPosition(), moving: await motor.isMoving() }), READ_EVERY_MS, [robot, name]);
  return (
    <>
      <p>
        Position <output aria-label={`${name} position`}>{state.answer ? state.answer.position.toFixed(2) : "…"}</output> revolutions,{" "}
        <output aria-label={`${name} moving`}>{state.answer?.moving ? "moving" : "stopped"}</output>
      </p>
      <div class="row">
        <label>
          Power
          <input type="number" min="-1" max="1" step="0.1" value={power} onInput={(e) => setPower(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={() => run(motor.setPower(Number(power)))}>
          Set power
        </button>
      </div>
      <div class="row">
        <label>
          RPM
          <input type="number" value={rpm} onInput={(e) => setRpm(e.currentTarget.value)} />
        </label>
        <label>
          Revolutions
          <input type="number" value={revolutions} onInput={(e) => setRevolutions(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={() => run(motor.goFor(Number(rpm), Number(revolutions)))}>
          Go for
        </button>
        <button type="button" class="danger" onClick={() => run(motor.stop())}>
          Stop
        </button>
      </div>
      <Problem text={problem || state.problem} />
    </>
  );
}
