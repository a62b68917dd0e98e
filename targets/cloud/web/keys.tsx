// API keys and the certificate authority: each organisation's keys (an organisation key acts as its
// owner; owners only), a new one made by name with its secret shown once, and revoking one, which
// refuses its tokens from the next call on; below them its provisioning keys
// (provisioning-keys.tsx). svc-cloud's CA certificate, which clients trust machines' certificates
// by, is a download for anyone.
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";
import { ProvisioningKeys } from "./provisioning-keys.js";

interface ApiKey {
  apiKey: { id: string; name: string; createdOn?: string };
  authorizations?: { authorizationId: string }[];
}

/** Whether a listed key is an organisation key (ListKeys lists provisioning keys too). */
const isOrganizationKey = (key: ApiKey) => key.authorizations?.some((a) => a.authorizationId === "organization_owner") ?? false;

function OrganizationKeys(props: { organization: { id: string; name: string } }) {
  const [keys, setKeys] = useState<ApiKey[] | undefined>(undefined);
  const [made, setMade] = useState<{ id: string; key: string } | undefined>(undefined);
  const [problem, run] = useProblem();
  const [version, setVersion] = useState(0);
  const organizationId = props.organization.id;

  useEffect(() => run(appCall<{ apiKeys?: ApiKey[] }>("ListKeys", { orgId: organizationId }), (answer) => setKeys((answer.apiKeys ?? []).filter(isOrganizationKey))), [version]);

  const create = (form: HTMLFormElement) => {
    const name = String(new FormData(form).get("name") ?? "").trim();
    const authorizations = [{ authorizationType: "role", authorizationId: "organization_owner", resourceType: "organization", resourceId: organizationId, organizationId }];
    run(appCall<{ id: string; key: string }>("CreateKey", { name, authorizations }), (answer) => {
      setMade(answer);
      form.reset();
      setVersion(version + 1);
    });
  };
  const revoke = (id: string) => run(appCall("DeleteKey", { id }), () => (setMade(undefined), setVersion(version + 1)));

  return (
    <section aria-label={`API keys of ${props.organization.name}`}>
      <h2>{props.organization.name}</h2>
      <Problem text={problem} />
      {keys && (
        <>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key id</th>
                  <th>Made</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {keys.map(({ apiKey }) => (
                  <tr key={apiKey.id}>
                    <td>{apiKey.name}</td>
                    <td>
                      <code>{apiKey.id}</code>
                    </td>
                    <td>{apiKey.createdOn ? new Date(apiKey.createdOn).toLocaleString() : ""}</td>
                    <td>
                      <button type="button" class="danger" onClick={() => revoke(apiKey.id)}>
                        Revoke {apiKey.name}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {keys.length === 0 && <p>No organisation keys.</p>}
          <form
            class="inline"
            aria-label={`New key for ${props.organization.name}`}
            onSubmit={(e) => {
              e.preventDefault();
              create(e.currentTarget as HTMLFormElement);
            }}
          >
            <label>
              New key
              <input name="name" type="text" maxLength={100} placeholder="Name" required />
            </label>
            <button type="submit">Create key</button>
          </form>
          {made && (
            <div class="secret" role="status">
              <p>The new key, shown this once (svc-cloud keeps only its hash): copy it now.</p>
              <pre>{`key id: ${made.id}\nkey:    ${made.key}`}</pre>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export function Keys() {
  const [organizations, setOrganizations] = useState<{ id: string; name: string }[]>([]);
  const [problem, run] = useProblem();
  useEffect(() => run(appCall<{ organizations?: { id: string; name: string }[] }>("ListOrganizations", {}), (answer) => setOrganizations(answer.organizations ?? [])), []);
  return (
    <article aria-label="Keys">
      <h1>API keys</h1>
      <p>
        An organisation key acts as the organisation's owner: scripts and the SDK's app client sign in with it. A provisioning key only makes machines, for a mobile app setting up devices. Clients that reach machines over TLS trust their certificates through svc-cloud's
        certificate authority:{" "}
        <a href="/ca.pem" download="svc-cloud-ca.pem">
          Download the CA certificate
        </a>
        .
      </p>
      <Problem text={problem} />
      {organizations.map((organization) => (
        <div key={organization.id}>
          <OrganizationKeys organization={organization} />
          <ProvisioningKeys organization={organization} />
        </div>
      ))}
    </article>
  );
}
