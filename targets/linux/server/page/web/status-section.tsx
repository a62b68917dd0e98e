// The machine at a glance: its state, the revision of the configuration it runs and where that
// came from (a file, svc-cloud, the built-in simulated machine), a configuration it refused, and
// a row for each resource, module and remote with its state and error. Names and errors are
// shown as text, whatever they contain.
import type { ShownStatus } from "./machine-status.js";
import type { PageConfig } from "./config-view.js";

export function StatusSection(props: { status: ShownStatus | undefined; config: PageConfig | undefined }) {
  const { status, config } = props;
  return (
    <section aria-label="Status">
      <h1>
        Machine <span class={`state state-${status?.state ?? "unknown"}`} aria-label="Machine state">{status?.state ?? "…"}</span>
      </h1>
      <dl class="facts">
        <dt>Config revision</dt>
        <dd aria-label="Config revision">{status?.revision || "none yet"}</dd>
        <dt>Config from</dt>
        <dd aria-label="Config origin">{config ? originText(config) : "…"}</dd>
        <dt>Remotes</dt>
        <dd aria-label="Remotes">{config && (config.remotes.length > 0 ? config.remotes.join(", ") : "none")}</dd>
      </dl>
      {config?.refusal && (
        <p class="problem" role="alert" aria-label="Config refused">
          The machine refused its newest configuration and runs the one before: {config.refusal.reason}
        </p>
      )}
      <div class="scroll">
        <table aria-label="Resource states">
          <thead>
            <tr>
              <th>Name</th>
              <th>API</th>
              <th>State</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            {[...(status?.resources ?? []), ...(status?.modules ?? [])].map((r) => (
              <tr key={r.fullName}>
                <td>{r.name}</td>
                <td>{r.api}</td>
                <td class={`state state-${r.state}`}>{r.state}</td>
                <td class="error">{r.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function originText(config: PageConfig): string {
  if (config.source.kind === "cloud") return "svc-cloud";
  if (config.source.kind === "builtin") return "the built-in simulated machine";
  return `the file ${config.source.label}`;
}
