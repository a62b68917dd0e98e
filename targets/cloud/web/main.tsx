// svc-cloud's web app: signed out it is the sign-in form; signed in, the fleet, or one part's page
// (#/part/<id>). The session lives in an HttpOnly cookie, so the page itself holds no credential.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { currentSession, setupNeeded, signOut, type SignedIn } from "./api.js";
import { Fleet } from "./fleet.js";
import { PartPage } from "./part-page.js";
import { SignIn } from "./sign-in.js";
import { Problem } from "./problem.js";

/** The part a location's hash names, if it names one. */
function partOf(hash: string): string | undefined {
  const match = /^#\/part\/([A-Za-z0-9-]{1,64})$/.exec(hash);
  return match?.[1];
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return hash;
}

function App() {
  const hash = useHash();
  const [who, setWho] = useState<SignedIn | null | undefined>(undefined);
  const [firstRun, setFirstRun] = useState(false);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    Promise.all([currentSession(), setupNeeded()]).then(
      ([session, needed]) => (setFirstRun(needed), setWho(session ?? null)),
      (thrown: Error) => setProblem(thrown.message),
    );
  }, []);

  if (problem) return <Problem text={problem} />;
  if (who === undefined) return <p>Loading…</p>;
  if (who === null) return <SignIn onSignedIn={(signed) => (setFirstRun(false), setWho(signed))} firstRun={firstRun} />;
  const leave = () => signOut().then(() => setWho(null), (thrown: Error) => setProblem(thrown.message));
  return (
    <>
      <header>
        <strong>svc-cloud</strong>
        <span class="who">{who.email}</span>
        <button type="button" onClick={leave}>
          Sign out
        </button>
      </header>
      <main>{partOf(hash) === undefined ? <Fleet /> : <PartPage partId={partOf(hash)!} />}</main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
