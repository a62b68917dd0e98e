// svc-cloud's web app: signed out it is the sign-in form (or an invitation's, #/invite/<token>);
// signed in, the fleet, one machine's page (#/machine/<id>), one part's page (#/part/<id>), the
// fragments (#/fragments) and one fragment's page (#/fragment/<id>), the versions of each location
// (#/versions), the people (#/people), or the API keys (#/keys). The session lives in an HttpOnly
// cookie, so the page itself holds no credential.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { currentSession, setupNeeded, signOut, type SignedIn } from "./api.js";
import { AcceptInvitation } from "./accept-invitation.js";
import { Fleet } from "./fleet.js";
import { FragmentPage } from "./fragment-page.js";
import { Fragments } from "./fragments.js";
import { Keys } from "./keys.js";
import { MachinePage } from "./machine-page.js";
import { PartPage } from "./part-page.js";
import { People } from "./people.js";
import { SignIn } from "./sign-in.js";
import { Versions } from "./versions.js";
import { Problem } from "../../web-ui/problem.js";

type Page = "part" | "machine" | "fragment" | "invite" | "people" | "fragments" | "versions" | "keys" | "fleet";

/** What a location's hash names: a part's or fragment's page, an invitation, the people, the fragments, or (anything else) the fleet. */
function routeOf(hash: string): { page: Page; id?: string } {
  const match = /^#\/(part|machine|fragment|invite)\/([A-Za-z0-9_-]{1,128})$/.exec(hash);
  if (match) return { page: match[1] as Page, id: match[2] };
  const named = /^#\/(people|fragments|versions|keys)$/.exec(hash);
  return { page: named ? (named[1] as Page) : "fleet" };
}

function PageOf(props: { route: { page: Page; id?: string } }) {
  const { page, id } = props.route;
  if (page === "part") return <PartPage partId={id!} />;
  if (page === "machine") return <MachinePage machineId={id!} />;
  if (page === "fragment") return <FragmentPage fragmentId={id!} />;
  if (page === "people") return <People />;
  if (page === "fragments") return <Fragments />;
  if (page === "versions") return <Versions />;
  if (page === "keys") return <Keys />;
  return <Fleet />;
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
  const route = routeOf(hash);
  if (who === null && route.page === "invite") return <AcceptInvitation token={route.id!} onSignedIn={setWho} />;
  if (who === null) return <SignIn onSignedIn={(signed) => (setFirstRun(false), setWho(signed))} firstRun={firstRun} />;
  const leave = () => signOut().then(() => setWho(null), (thrown: Error) => setProblem(thrown.message));
  return (
    <>
      <header>
        <strong>svc-cloud</strong>
        <a href="#/">Fleet</a>
        <a href="#/fragments">Fragments</a>
        <a href="#/versions">Versions</a>
        <a href="#/people">People</a>
        <a href="#/keys">Keys</a>
        <span class="who">{who.email}</span>
        <button type="button" onClick={leave}>
          Sign out
        </button>
      </header>
      <main>
        <PageOf route={route} />
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
