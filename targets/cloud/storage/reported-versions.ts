// What a part's agent last said it runs, kept in parts.reported_versions as JSON for the machine
// summaries: `server` and `agent` (running now), `server_installed` and `agent_installed` (to run
// after the next restart), `os` (the distribution, "debian:12"), `platform` ("linux/arm64"),
// `tags` and `reported_at` (ms). Empty values are left out.
import type { Kysely } from "kysely";
import type { Tables } from "./tables.js";

export interface ReportedVersions {
  server?: string;
  agent?: string;
  server_installed?: string;
  agent_installed?: string;
  os?: string;
  platform?: string;
  tags?: string[];
  reported_at: number;
}

export async function recordReportedVersions(db: Kysely<Tables>, partId: string, versions: ReportedVersions): Promise<void> {
  const kept = Object.fromEntries(Object.entries(versions).filter(([, v]) => v !== "" && v !== undefined && !(Array.isArray(v) && v.length === 0)));
  await db.updateTable("parts").set({ reported_versions: JSON.stringify(kept), last_access: versions.reported_at }).where("id", "=", partId).execute();
}

/** The string versions a part reported (none when it never did); whatever else the column holds is left out. */
export function reportedVersionsOf(json: string | null): Partial<Record<"server" | "agent" | "server_installed" | "agent_installed" | "os" | "platform", string>> {
  if (json === null) return {};
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof data !== "object" || data === null) return {};
  const found: Record<string, string> = {};
  for (const key of ["server", "agent", "server_installed", "agent_installed", "os", "platform"]) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") found[key] = value;
  }
  return found;
}
