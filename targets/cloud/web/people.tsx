// The people of each organisation the person belongs to, with their roles: an owner changes a
// role and invites someone (by email, with a role); the invitation's link is shown once, to be
// sent to them (svc-cloud keeps only a hash of it). What a viewer or operator may not do, the
// server refuses, and the page says so.
import { useEffect, useState } from "preact/hooks";
import { appCall, cloudCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface Organization {
  id: string;
  name: string;
}
interface User {
  id: string;
  email: string;
  role: string;
}

const ROLES = ["ROLE_OWNER", "ROLE_OPERATOR", "ROLE_VIEWER"];
const roleName = (role: string) => role.replace("ROLE_", "").toLowerCase();

function Organization(props: { organization: Organization }) {
  const { organization } = props;
  const [users, setUsers] = useState<User[]>([]);
  const [problem, run] = useProblem();
  const [link, setLink] = useState("");
  const [version, setVersion] = useState(0);

  useEffect(() => {
    run(cloudCall<{ users?: User[] }>("ListUsers", { organizationId: organization.id }), (answer) => setUsers(answer.users ?? []));
  }, [organization.id, version]);

  const setRole = (userId: string, role: string) => run(cloudCall("SetRole", { organizationId: organization.id, userId, role }), () => setVersion(version + 1));
  const invite = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const invitation = cloudCall<{ token: string }>("CreateInvitation", { organizationId: organization.id, email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") });
    run(invitation, ({ token }) => setLink(`${location.origin}/#/invite/${token}`));
  };

  return (
    <section aria-label={`People of ${organization.name}`}>
      <h2>{organization.name}</h2>
      <Problem text={problem} />
      <div class="scroll">
        <table>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td>{user.email}</td>
                <td>
                  <select aria-label={`Role of ${user.email}`} value={user.role} onChange={(e) => setRole(user.id, (e.currentTarget as HTMLSelectElement).value)}>
                    {ROLES.map((role) => (
                      <option value={role}>{roleName(role)}</option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="controls" onSubmit={invite} aria-label="Invite">
        <label>
          Email
          <input name="email" type="email" required />
        </label>
        <label>
          Role
          <select name="role" aria-label="Invited role">
            {ROLES.map((role) => (
              <option value={role} selected={role === "ROLE_VIEWER"}>
                {roleName(role)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Invite</button>
      </form>
      {link && (
        <p>
          Send this link to them (shown this once): <code class="invitation">{link}</code>
        </p>
      )}
    </section>
  );
}

export function People() {
  const [organizations, setOrganizations] = useState<Organization[]>([]);
  const [problem, run] = useProblem();
  useEffect(() => {
    run(appCall<{ organizations?: Organization[] }>("ListOrganizations", {}), (answer) => setOrganizations(answer.organizations ?? []));
  }, []);
  return (
    <article aria-label="People">
      <h1>People</h1>
      <Problem text={problem} />
      {organizations.map((organization) => (
        <Organization key={organization.id} organization={organization} />
      ))}
    </article>
  );
}
