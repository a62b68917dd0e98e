// An answer a page keeps fresh by asking again every `everyMs` (and whenever `deps` change): the
// newest answer, and the problem of the newest failed ask ("" once one succeeds again). Nothing
// is set after the page has moved on.
import { useEffect, useState } from "preact/hooks";

export function usePolled<T>(load: () => Promise<T>, everyMs: number, deps: unknown[]): { answer: T | undefined; problem: string } {
  const [answer, setAnswer] = useState<T | undefined>(undefined);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    let live = true;
    const refresh = () =>
      load().then(
        (loaded) => live && (setAnswer(loaded), setProblem("")),
        (thrown: Error) => live && setProblem(thrown.message),
      );
    void refresh();
    const timer = setInterval(refresh, everyMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, deps);

  return { answer, problem };
}
