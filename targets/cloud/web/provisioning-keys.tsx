// An organisation's provisioning keys (owners only): each makes machines, and nothing else, in one
// location with one fragment attached, for a mobile app setting up devices whose agent names that
// fragment. A new one is made by name, location and fragment, its secret shown that once;
// "Revoke" refuses it from its next use on.
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

const ROLE = "provisioning";

interface Named {
  id: string;
  name: string;
}

interface ListedKey {
  apiKey: { id: string; name: string; createdOn?: string };
  authorizations?: { authorizationId: string; resourceType: string; resourceId: string }[];
}

interface Choices {
  locations: Named[];
  fragments: Named[];
}

interface Made {
  id: string;
  key: string;
  locationId: string;
  fragmentId: string;
}

async function choicesOf(organizationId: string): Promise<Choices> {
  const [locations, fragments] = await Promise.all([
    appCall<{ locations?: Named[] }>("ListLocations", { organizationId }),
    appCall<{ fragments?: Named[] }>("ListFragments", { organizationId }),
  ]);
  return { locations: locations.locations ?? [], fragments: fragments.fragments ?? [] };
}

/** The resource a provisioning key's authorization of `type` names. */
const over = (key: ListedKey, type: string) => key.authorizations?.find((a) => a.authorizationId === ROLE && a.resourceType === type)?.resourceId ?? "";

function KeyTable(props: { keys: ListedKey[]; choices: Choices; onRevoke: (id: string) => void }) {
  const nameOf = (list: Named[], id: string) => list.find((item) => item.id === id)?.name ?? id;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Key id</th>
            <th>Location</th>
            <th>Fragment</th>
            <th>Made</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => (
            <tr key={key.apiKey.id}>
              <td>{key.apiKey.name}</td>
              <td>
                <code>{key.apiKey.id}</code>
              </td>
              <td>{nameOf(props.choices.locations, over(key, "location"))}</td>
              <td>{nameOf(props.choices.fragments, over(key, "fragment"))}</td>
              <td>{key.apiKey.createdOn ? new Date(key.apiKey.createdOn).toLocaleString() : ""}</td>
              <td>
                <button type="button" class="danger" onClick={() => props.onRevoke(key.apiKey.id)}>
                  Revoke provisioning key {key.apiKey.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function NewProvisioningKey(props: { organization: Named; choices: Choices; onMade: (made: Made) => void }) {
  const [problem, run] = useProblem();
  const organizationId = props.organization.id;
  const { locations, fragments } = props.choices;
  const create = (form: HTMLFormElement) => {
    const fields = new FormData(form);
    const [name, locationId, fragmentId] = ["name", "location", "fragment"].map((field) => String(fields.get(field) ?? "").trim()) as [string, string, string];
    const authorizations = [
      { authorizationType: "role", authorizationId: ROLE, resourceType: "location", resourceId: locationId, organizationId },
      { authorizationType: "role", authorizationId: ROLE, resourceType: "fragment", resourceId: fragmentId, organizationId },
    ];
    run(appCall<{ id: string; key: string }>("CreateKey", { name, authorizations }), (answer) => {
      form.reset();
      props.onMade({ ...answer, locationId, fragmentId });
    });
  };
  return (
    <form
      class="inline"
      aria-label={`New provisioning key for ${props.organization.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        create(e.currentTarget as HTMLFormElement);
      }}
    >
      <label>
        New provisioning key
        <input name="name" type="text" maxLength={100} placeholder="Name" required />
      </label>
      <label>
        Location
        <select name="location" required>
          {locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Fragment
        <select name="fragment" required>
          {fragments.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={locations.length === 0 || fragments.length === 0}>
        Create provisioning key
      </button>
      {fragments.length === 0 && <p>The organisation has no fragment yet: make one on the Fragments page first.</p>}
      <Problem text={problem} />
    </form>
  );
}

export function ProvisioningKeys(props: { organization: Named }) {
  const [keys, setKeys] = useState<ListedKey[] | undefined>(undefined);
  const [choices, setChoices] = useState<Choices | undefined>(undefined);
  const [made, setMade] = useState<Made | undefined>(undefined);
  const [problem, run] = useProblem();
  const [version, setVersion] = useState(0);
  const organizationId = props.organization.id;

  useEffect(() => run(choicesOf(organizationId), setChoices), []);
  useEffect(() => run(appCall<{ apiKeys?: ListedKey[] }>("ListKeys", { orgId: organizationId }), (answer) => setKeys((answer.apiKeys ?? []).filter((k) => over(k, "location") !== ""))), [version]);
  const revoke = (id: string) => run(appCall("DeleteKey", { id }), () => (setMade(undefined), setVersion(version + 1)));

  return (
    <section aria-label={`Provisioning keys of ${props.organization.name}`}>
      <h3>Provisioning keys</h3>
      <p>
        A provisioning key makes machines and does nothing else: each in its location, with its fragment attached. A mobile app setting up a device whose agent names that fragment
        (<code>network_configuration.fragment_id</code>) makes the device's machine with it (<code>POST /api/json1/provision</code>) and hands the device the new machine's credentials.
      </p>
      <Problem text={problem} />
      {keys && choices && (
        <>
          <KeyTable keys={keys} choices={choices} onRevoke={revoke} />
          {keys.length === 0 && <p>No provisioning keys.</p>}
          <NewProvisioningKey organization={props.organization} choices={choices} onMade={(answer) => (setMade(answer), setVersion(version + 1))} />
          {made && (
            <div class="secret" role="status">
              <p>The new provisioning key, shown this once (svc-cloud keeps only its hash): copy it now.</p>
              <pre>{`key id:      ${made.id}\nkey:         ${made.key}\nlocation:    ${made.locationId}\nfragment_id: ${made.fragmentId}`}</pre>
            </div>
          )}
        </>
      )}
    </section>
  );
}
