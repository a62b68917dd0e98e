// The page's top level: what the machine says of logging in, the login form when it has keys,
// and the machine's view once a session is open.
import { useEffect, useState } from "preact/hooks";
import { Problem } from "../../../../web-ui/problem.js";
import { Login } from "./login.js";
import { MachineView } from "./machine-view.js";
import { machineInfo, openSession, type ApiKey, type MachineInfo, type Session } from "./session.js";

export function App() {
  const [info, setInfo] = useState<MachineInfo | undefined>(undefined);
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [problem, setProblem] = useState("");

  const open = (found: MachineInfo, key: ApiKey | undefined) =>
    openSession(found, key).then(
      (opened) => (setProblem(""), setSession(opened)),
      (thrown: Error) => setProblem(thrown.message),
    );

  useEffect(() => {
    machineInfo().then(
      (found) => {
        setInfo(found);
        if (!found.auth) void open(found, undefined);
      },
      (thrown: Error) => setProblem(thrown.message),
    );
  }, []);

  return (
    <>
      <header>
        <strong>svc-server</strong>
        <span class="where">{location.host}</span>
        {session && <span class="via">connected over {session.via}</span>}
      </header>
      {session ? (
        <MachineView session={session} />
      ) : (
        <main class="narrow">
          <Problem text={problem} />
          {info?.auth ? <Login onLogin={(key) => open(info, key)} /> : !problem && <p>Connecting…</p>}
        </main>
      )}
    </>
  );
}
