// What went wrong, as the server said it, where the person is looking; nothing when all is well.
// `useProblem` gives a component its problem and the one way its calls report: a failure shows
// the server's words, a success clears them and goes on.
import { useState } from "preact/hooks";

export function Problem(props: { text: string }) {
  return props.text ? (
    <p class="problem" role="alert">
      {props.text}
    </p>
  ) : null;
}

export type Run = <T>(call: Promise<T>, then?: (value: T) => void) => void;

export function useProblem(): [string, Run, (text: string) => void] {
  const [problem, setProblem] = useState("");
  const run: Run = (call, then) => {
    call.then(
      (value) => {
        setProblem("");
        then?.(value);
      },
      (thrown: Error) => setProblem(thrown.message),
    );
  };
  return [problem, run, setProblem];
}
