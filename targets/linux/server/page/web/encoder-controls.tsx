// An encoder's position, read again twice a second, and resetting it to zero.
import { EncoderClient, type RobotClient } from "@viamrobotics/sdk";
import { Problem, useProblem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";

export function EncoderControls(props: { robot: RobotClient; name: string }) {
  const { robot, name } = props;
  const encoder = new EncoderClient(robot, name);
  const [problem, run] = useProblem();
  const position = usePolled(async () => (await encoder.getPosition())[0], 500, [robot, name]);
  return (
    <>
      <p>
        Position <output aria-label={`${name} position`}>{position.answer === undefined ? "…" : position.answer.toFixed(2)}</output>
      </p>
      <button type="button" onClick={() => run(encoder.resetPosition())}>
        Reset to zero
      </button>
      <Problem text={problem || position.problem} />
    </>
  );
}
