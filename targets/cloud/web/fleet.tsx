// The fleet: every organisation the person belongs to, its locations, machines and parts, each
// part with its online state, when it was last seen and the svc-server and svc-agent versions it
// reports; filtered as one types (by any of those names), refreshed every ten seconds; and a new
// machine made by name.
import { useState } from "preact/hooks";
import { appCall } from "./api.js";
import { NewMachine } from "./new-machine.js";
import { Problem } from "../../web-ui/problem.js";
import { usePolled } from "../../web-ui/use-polled.js";

interface Version {
  major?: string;
  minor?: string;
}
interface PartSummary {
  partId: string;
  partName: string;
  isMainPart?: boolean;
  onlineState?: string;
  lastOnline?: string;
  viamServerVersion?: Version;
  viamAgentVersion?: Version;
}
interface LocationSummary {
  locationId: string;
  locationName: string;
  machineSummaries?: { machineId: string; machineName: string; partSummaries?: PartSummary[] }[];
}
interface Organization {
  id: string;
  name: string;
}

export interface FleetRow {
  organization: string;
  location: string;
  machine: string;
  machineId: string;
  part: PartSummary;
}

const REFRESH_MS = 10_000;

async function loadFleet(): Promise<FleetRow[]> {
  const { organizations = [] } = await appCall<{ organizations?: Organization[] }>("ListOrganizations", {});
  const rows: FleetRow[] = [];
  for (const organization of organizations) {
    const { locationSummaries = [] } = await appCall<{ locationSummaries?: LocationSummary[] }>("ListMachineSummaries", { organizationId: organization.id });
    for (const location of locationSummaries) {
      for (const machine of location.machineSummaries ?? []) {
        for (const part of machine.partSummaries ?? []) rows.push({ organization: organization.name, location: location.locationName, machine: machine.machineName, machineId: machine.machineId, part });
      }
    }
  }
  return rows;
}

const STATES: Record<string, string> = { ONLINE_STATE_ONLINE: "online", ONLINE_STATE_OFFLINE: "offline", ONLINE_STATE_AWAITING_SETUP: "awaiting setup" };

function versionText(version: Version | undefined): string {
  return version?.major ?? version?.minor ?? "";
}

function matches(row: FleetRow, filter: string): boolean {
  const text = [row.organization, row.location, row.machine, row.part.partName, STATES[row.part.onlineState ?? ""] ?? "", versionText(row.part.viamServerVersion), versionText(row.part.viamAgentVersion)];
  return text.join(" ").toLowerCase().includes(filter.trim().toLowerCase());
}

export function Fleet() {
  const { answer: rows, problem } = usePolled(loadFleet, REFRESH_MS, []);
  const [filter, setFilter] = useState("");

  const shown = (rows ?? []).filter((row) => matches(row, filter));
  return (
    <section aria-label="Fleet">
      <input type="search" placeholder="Filter machines" aria-label="Filter machines" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
      <Problem text={problem} />
      {rows === undefined ? (
        <p>Loading…</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>Organisation</th>
                <th>Location</th>
                <th>Machine</th>
                <th>Part</th>
                <th>State</th>
                <th>Last seen</th>
                <th>svc-server</th>
                <th>svc-agent</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.part.partId} data-part={row.part.partId}>
                  <td>{row.organization}</td>
                  <td>{row.location}</td>
                  <td>
                    <a href={`#/machine/${row.machineId}`}>{row.machine}</a>
                  </td>
                  <td>
                    <a href={`#/part/${row.part.partId}`}>{row.part.partName}</a>
                    {row.part.isMainPart ? " (main)" : ""}
                  </td>
                  <td class={`state ${row.part.onlineState ?? ""}`}>{STATES[row.part.onlineState ?? ""] ?? "unknown"}</td>
                  <td>{row.part.lastOnline ? new Date(row.part.lastOnline).toLocaleString() : "never"}</td>
                  <td>{versionText(row.part.viamServerVersion)}</td>
                  <td>{versionText(row.part.viamAgentVersion)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows !== undefined && shown.length === 0 && <p>{rows.length === 0 ? "No machines yet: make one below (or with svc-cloud machine create --name NAME)." : "No machine matches the filter."}</p>}
      <NewMachine />
    </section>
  );
}
