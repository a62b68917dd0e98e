// The machine once connected: its status, a card for each resource, the graph of its resources,
// its live logs, its configuration, and charts of its diagnostics. The status is read again every
// two seconds; the sections below follow it.
import { useState } from "preact/hooks";
import { Problem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";
import { ConfigView, type PageConfig } from "./config-view.js";
import { DiagnosticsView } from "./diagnostics-view.js";
import { LogsView } from "./logs-view.js";
import { readStatus } from "./machine-status.js";
import { ResourceCards } from "./resource-cards.js";
import { ResourceGraph } from "./resource-graph.js";
import type { Session } from "./session.js";
import { StatusSection } from "./status-section.js";

const STATUS_EVERY_MS = 2000;

export function MachineView(props: { session: Session }) {
  const { robot, api } = props.session;
  const status = usePolled(() => readStatus(robot), STATUS_EVERY_MS, [robot]);
  const [configSeen, setConfigSeen] = useState(0);
  const config = usePolled(() => api.get<PageConfig>("/page/api/config"), 5000, [api, configSeen]);
  return (
    <main>
      <Problem text={status.problem} />
      <StatusSection status={status.answer} config={config.answer} />
      <section aria-label="Resources">
        <h2>Resources</h2>
        {status.answer && <ResourceCards robot={robot} resources={status.answer.resources} />}
      </section>
      <ResourceGraph api={api} revision={status.answer?.revision ?? ""} />
      <LogsView api={api} />
      <ConfigView api={api} config={config.answer} problem={config.problem} onSaved={() => setConfigSeen((n) => n + 1)} />
      <DiagnosticsView api={api} />
    </main>
  );
}
