// One fragment: its config in the same editor and validator as a part's (a fragment cannot set
// `cloud`), each save a new revision for every part using it, told at once; the parts that use it,
// directly or through another fragment, each with the overrides it makes (fragment_mods, edited in
// that part's config); and removing it once nothing uses it. Reached at #/fragment/<id>.
import { useEffect, useState } from "preact/hooks";
import { appCall, cloudCall } from "./api.js";
import { ConfigEdit } from "./config-edit.js";
import { fragmentProblems } from "../../web-ui/config-problems.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface Fragment {
  id: string;
  name: string;
  fragment?: Record<string, unknown>;
  lastUpdated: string;
  revision?: string;
}

interface FragmentUser {
  partId: string;
  partName: string;
  machineName: string;
  direct?: boolean;
  modsJson?: string;
}

const configJsonOf = (fragment: Fragment) => JSON.stringify(fragment.fragment ?? {}, null, 2);

export function FragmentPage(props: { fragmentId: string }) {
  const [fragment, setFragment] = useState<Fragment | undefined>(undefined);
  const [users, setUsers] = useState<FragmentUser[]>([]);
  const [problem, run] = useProblem();
  // Moves after a save: the fragment and its users are read again.
  const [version, setVersion] = useState(0);

  const read = () => appCall<{ fragment: Fragment }>("GetFragment", { id: props.fragmentId }).then((answer) => answer.fragment);

  useEffect(() => {
    run(read(), setFragment);
    run(cloudCall<{ users?: FragmentUser[] }>("ListFragmentUsers", { fragmentId: props.fragmentId }), (answer) => setUsers(answer.users ?? []));
  }, [props.fragmentId, version]);

  const remove = () => run(appCall("DeleteFragment", { id: props.fragmentId }), () => (location.hash = "#/fragments"));

  return (
    <article aria-label="Fragment">
      <p>
        <a href="#/fragments">Fragments</a>
      </p>
      <Problem text={problem} />
      {fragment && (
        <>
          <h1>{fragment.name}</h1>
          <p>
            Revision {fragment.revision}. Saving makes a new revision for each of the {users.length} part{users.length === 1 ? "" : "s"} using it.
          </p>
          <ConfigEdit
            key={fragment.lastUpdated}
            label="Fragment config"
            configJson={configJsonOf(fragment)}
            lastUpdated={fragment.lastUpdated}
            check={fragmentProblems}
            save={(config, basedOn) => appCall("UpdateFragment", { id: fragment.id, name: fragment.name, config, lastKnownUpdate: basedOn })}
            saved={() => read().then((now) => ({ configJson: configJsonOf(now), lastUpdated: now.lastUpdated }))}
            onSaved={() => setVersion(version + 1)}
          />
          <section aria-label="Parts using it">
            <h2>Parts using it</h2>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>Part</th>
                    <th>Machine</th>
                    <th>How</th>
                    <th>Its overrides</th>
                  </tr>
                </thead>
                <tbody>
                  {users.map((user) => (
                    <tr key={user.partId}>
                      <td>
                        <a href={`#/part/${user.partId}`}>{user.partName}</a>
                      </td>
                      <td>{user.machineName}</td>
                      <td>{user.direct ? "lists it" : "through another fragment"}</td>
                      <td>{user.modsJson ? <code>{user.modsJson}</code> : "none"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {users.length === 0 && <p>No part uses it.</p>}
          </section>
          <p>
            <button type="button" class="danger" onClick={remove}>
              Remove fragment
            </button>
          </p>
        </>
      )}
    </article>
  );
}
