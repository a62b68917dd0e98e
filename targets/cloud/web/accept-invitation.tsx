// An invitation's link (#/invite/<token>), opened signed out: the invited person chooses their
// password (when they have no account yet) and is signed in as a member with the invited role.
import { useState } from "preact/hooks";
import { cloudCall, signIn, type SignedIn } from "./api.js";
import { Problem } from "../../web-ui/problem.js";

export function AcceptInvitation(props: { token: string; onSignedIn: (who: SignedIn) => void }) {
  const [problem, setProblem] = useState("");

  const accept = async (event: SubmitEvent) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget as HTMLFormElement).get("password") ?? "");
    try {
      const { user } = await cloudCall<{ user: { email: string } }>("AcceptInvitation", { token: props.token, password });
      props.onSignedIn(await signIn(user.email, password));
      location.hash = "#/";
    } catch (thrown) {
      setProblem((thrown as Error).message);
    }
  };

  return (
    <main class="narrow">
      <h1>svc-cloud</h1>
      <p>You are invited. Choose your password to join.</p>
      <form onSubmit={accept} aria-label="Accept invitation">
        <label>
          Password
          <input name="password" type="password" autocomplete="new-password" minLength={8} required />
        </label>
        <Problem text={problem} />
        <button type="submit">Join</button>
      </form>
    </main>
  );
}
