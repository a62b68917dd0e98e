// svc-cloud's web app: signed out it is the sign-in form; signed in, the fleet. The session lives
// in an HttpOnly cookie, so the page itself holds no credential.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { currentSession, signOut, type SignedIn } from "./api.js";
import { Fleet } from "./fleet.js";
import { SignIn } from "./sign-in.js";

function App() {
  const [who, setWho] = useState<SignedIn | null | undefined>(undefined);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    currentSession().then(
      (session) => setWho(session ?? null),
      (thrown: Error) => setProblem(thrown.message),
    );
  }, []);

  if (problem) return <p class="problem" role="alert">{problem}</p>;
  if (who === undefined) return <p>Loading…</p>;
  if (who === null) return <SignIn onSignedIn={setWho} />;
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
      <main>
        <Fleet />
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
