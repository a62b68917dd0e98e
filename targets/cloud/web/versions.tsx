// The versions page: for each location, what each part's config tells its machine to install
// beside what its agent last reported, and one change for every part of the location ("stable",
// "dev", a version svc-cloud holds a release of, or a URL; left empty, a product stays as each
// part has it); and the release channels, which version "stable" and "dev" of each product are
// (moved by an owner of svc-cloud's first organisation; svc-cloud says why to anyone else).
import { useEffect, useState } from "preact/hooks";
import { appCall, cloudCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface PartVersions {
  partId: string;
  partName: string;
  machineName: string;
  svcServer: string;
  svcAgent: string;
  svcServerReported?: string;
  svcAgentReported?: string;
}

interface Location {
  id: string;
  name: string;
  organization: string;
}

interface Releases {
  releases?: { product: string; version: string }[];
  channels?: { product: string; name: string; version: string }[];
}

const PRODUCTS = ["svc-server", "svc-agent"] as const;

async function loadLocations(): Promise<Location[]> {
  const { organizations = [] } = await appCall<{ organizations?: { id: string; name: string }[] }>("ListOrganizations", {});
  const each = await Promise.all(
    organizations.map(async (organization) =>
      ((await appCall<{ locations?: { id: string; name: string }[] }>("ListLocations", { organizationId: organization.id })).locations ?? []).map((l) => ({ ...l, organization: organization.name })),
    ),
  );
  return each.flat();
}

/** The versions a person may pick for a product: the channels and every release svc-cloud holds. */
function VersionChoices(props: { id: string; product: string; releases: Releases }) {
  const versions = [...new Set((props.releases.releases ?? []).filter((r) => r.product === props.product).map((r) => r.version))];
  return (
    <datalist id={props.id}>
      <option value="stable" />
      <option value="dev" />
      {versions.map((version) => (
        <option key={version} value={version} />
      ))}
    </datalist>
  );
}

function LocationVersions(props: { location: Location; releases: Releases }) {
  const [parts, setParts] = useState<PartVersions[]>([]);
  const [problem, run] = useProblem();
  const [said, setSaid] = useState("");
  const [version, setVersion] = useState(0);

  useEffect(() => run(cloudCall<{ parts?: PartVersions[] }>("GetLocationVersions", { locationId: props.location.id }), (answer) => setParts(answer.parts ?? [])), [version]);

  const apply = (form: HTMLFormElement) => {
    const fields = new FormData(form);
    const spec = (name: string) => String(fields.get(name) ?? "").trim() || undefined;
    const request = { locationId: props.location.id, svcServer: spec("svc-server"), svcAgent: spec("svc-agent") };
    setSaid("");
    run(cloudCall<{ partsChanged?: number }>("SetLocationVersions", request), (answer) => {
      const changed = answer.partsChanged ?? 0;
      setSaid(changed === 0 ? "Every part already asks for these." : `${changed} part${changed === 1 ? "" : "s"} changed; their machines were told.`);
      form.reset();
      setVersion(version + 1);
    });
  };

  const listId = (product: string) => `${props.location.id}-${product}`;
  return (
    <section aria-label={`Versions of ${props.location.name}`}>
      <h2>
        {props.location.name} <small>({props.location.organization})</small>
      </h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th>Machine</th>
              <th>Part</th>
              <th>svc-server asked</th>
              <th>running</th>
              <th>svc-agent asked</th>
              <th>running</th>
            </tr>
          </thead>
          <tbody>
            {parts.map((part) => (
              <tr key={part.partId}>
                <td>{part.machineName}</td>
                <td>
                  <a href={`#/part/${part.partId}`}>{part.partName}</a>
                </td>
                <td>{part.svcServer}</td>
                <td>{part.svcServerReported || "not reported"}</td>
                <td>{part.svcAgent}</td>
                <td>{part.svcAgentReported || "not reported"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {parts.length === 0 && <p>No machines here yet.</p>}
      <form
        class="inline"
        aria-label={`Set versions for ${props.location.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          apply(e.currentTarget as HTMLFormElement);
        }}
      >
        {PRODUCTS.map((product) => (
          <label key={product}>
            {product} for every part
            <input name={product} list={listId(product)} placeholder="unchanged" />
            <VersionChoices id={listId(product)} product={product} releases={props.releases} />
          </label>
        ))}
        <button type="submit">Set for the location</button>
        <span role="status">{said}</span>
      </form>
      <Problem text={problem} />
    </section>
  );
}

function Channels(props: { releases: Releases; onMoved: () => void }) {
  const [problem, run] = useProblem();
  const channels = props.releases.channels ?? [];
  return (
    <section aria-label="Release channels">
      <h2>Release channels</h2>
      <p>Machines that ask for "stable" or "dev" install the version the channel points at.</p>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th>Product</th>
              <th>Channel</th>
              <th>Version</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((channel) => (
              <tr key={`${channel.product}/${channel.name}`}>
                <td>{channel.product}</td>
                <td>{channel.name}</td>
                <td>{channel.version}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {channels.length === 0 && <p>No release imported yet (svc-cloud release add DIR).</p>}
      <form
        class="inline"
        aria-label="Move a channel"
        onSubmit={(e) => {
          e.preventDefault();
          const fields = new FormData(e.currentTarget as HTMLFormElement);
          const request = { product: String(fields.get("product")), channel: String(fields.get("channel")), version: String(fields.get("version") ?? "").trim() };
          run(cloudCall("SetChannel", request), props.onMoved);
        }}
      >
        <label>
          Product
          <select name="product">
            {PRODUCTS.map((product) => (
              <option key={product} value={product}>
                {product}
              </option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <select name="channel">
            <option value="stable">stable</option>
            <option value="dev">dev</option>
          </select>
        </label>
        <label>
          Version
          <input name="version" list="channel-versions" required />
          <datalist id="channel-versions">
            {[...new Set((props.releases.releases ?? []).map((r) => r.version))].map((version) => (
              <option key={version} value={version} />
            ))}
          </datalist>
        </label>
        <button type="submit">Move channel</button>
      </form>
      <Problem text={problem} />
    </section>
  );
}

export function Versions() {
  const [locations, setLocations] = useState<Location[]>([]);
  const [releases, setReleases] = useState<Releases>({});
  const [problem, run] = useProblem();
  const [version, setVersion] = useState(0);

  useEffect(() => run(loadLocations(), setLocations), []);
  useEffect(() => run(cloudCall<Releases>("ListReleases", {}), setReleases), [version]);

  return (
    <article aria-label="Versions">
      <h1>Versions</h1>
      <Problem text={problem} />
      {locations.map((location) => (
        <LocationVersions key={location.id} location={location} releases={releases} />
      ))}
      <Channels releases={releases} onMoved={() => setVersion(version + 1)} />
    </article>
  );
}
