// A board: a GPIO pin read and set, a pin's PWM duty cycle read and set, and an analog reader read.
import { BoardClient, type RobotClient } from "@viamrobotics/sdk";
import { useState } from "preact/hooks";
import { Problem, useProblem } from "../../../../web-ui/problem.js";

export function BoardControls(props: { robot: RobotClient; name: string }) {
  const board = new BoardClient(props.robot, props.name);
  const [pin, setPin] = useState("11");
  const [level, setLevel] = useState("");
  const [duty, setDuty] = useState("0.5");
  const [dutyRead, setDutyRead] = useState("");
  const [reader, setReader] = useState("");
  const [analog, setAnalog] = useState("");
  const [problem, run] = useProblem();
  const readPin = () => run(board.getGPIO(pin), (high) => setLevel(high ? "high" : "low"));
  const setPinTo = (high: boolean) => run(board.setGPIO(pin, high).then(() => board.getGPIO(pin)), (now) => setLevel(now ? "high" : "low"));
  return (
    <>
      <div class="row">
        <label>
          Pin
          <input value={pin} onInput={(e) => setPin(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={readPin}>
          Get
        </button>
        <button type="button" onClick={() => setPinTo(true)}>
          Set high
        </button>
        <button type="button" onClick={() => setPinTo(false)}>
          Set low
        </button>
        <output aria-label={`${props.name} pin level`}>{level}</output>
      </div>
      <div class="row">
        <label>
          PWM duty cycle
          <input type="number" min="0" max="1" step="0.05" value={duty} onInput={(e) => setDuty(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={() => run(board.setPWM(pin, Number(duty)).then(() => board.getPWM(pin)), (d) => setDutyRead(String(d)))}>
          Set PWM
        </button>
        <button type="button" onClick={() => run(board.getPWM(pin), (d) => setDutyRead(String(d)))}>
          Get PWM
        </button>
        <output aria-label={`${props.name} PWM`}>{dutyRead}</output>
      </div>
      <div class="row">
        <label>
          Analog reader
          <input value={reader} onInput={(e) => setReader(e.currentTarget.value)} />
        </label>
        <button type="button" onClick={() => run(board.readAnalogReader(reader), (r) => setAnalog(String(r.value)))}>
          Read
        </button>
        <output aria-label={`${props.name} analog value`}>{analog}</output>
      </div>
      <Problem text={problem} />
    </>
  );
}
