// The sign-in form: email and password, the server's answer shown as it is (wrong credentials,
// too many attempts), nothing kept in the page once signed in.
import { useState } from "preact/hooks";
import { signIn, type SignedIn } from "./api.js";
import { Problem } from "./problem.js";

export function SignIn(props: { onSignedIn: (who: SignedIn) => void }) {
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setProblem("");
    try {
      props.onSignedIn(await signIn(String(form.get("email") ?? ""), String(form.get("password") ?? "")));
    } catch (thrown) {
      setProblem((thrown as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="narrow">
      <h1>svc-cloud</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <Problem text={problem} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
