// The fragments of every organisation the person belongs to: each with how many parts use it and
// when it last changed, opened at #/fragment/<id>; and a new, empty fragment made by name.
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface Fragment {
  id: string;
  name: string;
  robotPartCount?: number;
  lastUpdated?: string;
  revision?: string;
}

interface OrganizationFragments {
  id: string;
  name: string;
  fragments: Fragment[];
}

async function loadFragments(): Promise<OrganizationFragments[]> {
  const { organizations = [] } = await appCall<{ organizations?: { id: string; name: string }[] }>("ListOrganizations", {});
  return Promise.all(
    organizations.map(async (organization) => ({
      ...organization,
      fragments: (await appCall<{ fragments?: Fragment[] }>("ListFragments", { organizationId: organization.id })).fragments ?? [],
    })),
  );
}

function NewFragment(props: { organizationId: string }) {
  const [problem, run] = useProblem();
  return (
    <form
      class="inline"
      aria-label="New fragment"
      onSubmit={(e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget as HTMLFormElement).get("name") ?? "").trim();
        run(appCall<{ fragment: Fragment }>("CreateFragment", { organizationId: props.organizationId, name, config: {} }), (made) => {
          location.hash = `#/fragment/${made.fragment.id}`;
        });
      }}
    >
      <label>
        New fragment
        <input name="name" type="text" required maxLength={100} placeholder="Name" />
      </label>
      <button type="submit">Create</button>
      <Problem text={problem} />
    </form>
  );
}

export function Fragments() {
  const [organizations, setOrganizations] = useState<OrganizationFragments[] | undefined>(undefined);
  const [problem, run] = useProblem();

  useEffect(() => run(loadFragments(), setOrganizations), []);

  return (
    <section aria-label="Fragments">
      <h1>Fragments</h1>
      <p>A fragment is a piece of config many parts use: a change of it reaches every one of them.</p>
      <Problem text={problem} />
      {organizations?.map((organization) => (
        <div key={organization.id}>
          {organizations.length > 1 && <h2>{organization.name}</h2>}
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Fragment</th>
                  <th>Parts using it</th>
                  <th>Revision</th>
                  <th>Changed</th>
                </tr>
              </thead>
              <tbody>
                {organization.fragments.map((fragment) => (
                  <tr key={fragment.id}>
                    <td>
                      <a href={`#/fragment/${fragment.id}`}>{fragment.name}</a>
                    </td>
                    <td>{fragment.robotPartCount ?? 0}</td>
                    <td>{fragment.revision}</td>
                    <td>{fragment.lastUpdated ? new Date(fragment.lastUpdated).toLocaleString() : ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {organization.fragments.length === 0 && <p>No fragments yet.</p>}
          <NewFragment organizationId={organization.id} />
        </div>
      ))}
    </section>
  );
}
