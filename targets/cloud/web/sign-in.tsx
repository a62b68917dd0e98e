// The sign-in form: email and password, the server's answer shown as it is (wrong credentials,
// too many attempts), nothing kept in the page once signed in. On first run (svc-cloud has nobody
// yet, and this browser runs on its computer) the same form makes the first owner.
import { useState } from "preact/hooks";
import { setUp, signIn, type SignedIn } from "./api.js";
import { Problem } from "../../web-ui/problem.js";

export function SignIn(props: { onSignedIn: (who: SignedIn) => void; firstRun: boolean }) {
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setProblem("");
    try {
      const send = props.firstRun ? setUp : signIn;
      props.onSignedIn(await send(String(form.get("email") ?? ""), String(form.get("password") ?? "")));
    } catch (thrown) {
      setProblem((thrown as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="narrow">
      <h1>svc-cloud</h1>
      {props.firstRun && <p>Nobody uses this svc-cloud yet: make its first owner, who can then invite others.</p>}
      <form onSubmit={submit} aria-label={props.firstRun ? "First owner" : "Sign in"}>
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete={props.firstRun ? "new-password" : "current-password"} minLength={props.firstRun ? 8 : undefined} required />
        </label>
        <Problem text={problem} />
        <button type="submit" disabled={busy}>
          {props.firstRun ? "Create owner" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
