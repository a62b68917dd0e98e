// "Enable debug logs", for the whole machine (the config's `debug`) or for one resource of the
// part's own config (a component's or service's `log_configuration`, a module's `log_level`).
// Each change saves a new revision based on the one shown, so an edit made elsewhere meanwhile is
// refused as a conflict, never overwritten; the machine is told at once. Resources a fragment
// brings are changed in the fragment.
import { useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

type Config = Record<string, unknown>;
type Entry = Record<string, unknown> & { name?: unknown };

const logConfigurationDebug = (e: Entry) => (e.log_configuration as { level?: string } | undefined)?.level?.toLowerCase() === "debug";
const logLevelDebug = (e: Entry) => String(e.log_level ?? "").toLowerCase() === "debug";

/** Where a resource's debug setting is, by the list it is in. */
const LISTS = [
  { key: "components", debug: logConfigurationDebug, set: setLogConfiguration },
  { key: "services", debug: logConfigurationDebug, set: setLogConfiguration },
  { key: "modules", debug: logLevelDebug, set: setLogLevel },
] as const;

function setLogConfiguration(entry: Entry, on: boolean): Entry {
  const { log_configuration: _old, ...rest } = entry;
  return on ? { ...rest, log_configuration: { level: "debug" } } : rest;
}

function setLogLevel(entry: Entry, on: boolean): Entry {
  const { log_level: _old, ...rest } = entry;
  return on ? { ...rest, log_level: "debug" } : rest;
}

export function DebugLogs(props: { partId: string; config: Config; lastUpdated: string; onSaved: () => void }) {
  const [problem, run] = useProblem();
  const [busy, setBusy] = useState(false);

  const save = (config: Config) => {
    setBusy(true);
    const saved = appCall("UpdateRobotPart", { id: props.partId, name: "", robotConfig: config, lastKnownUpdate: props.lastUpdated });
    run(saved.finally(() => setBusy(false)), props.onSaved);
  };

  const machineWide = props.config.debug === true;
  const toggleMachine = () => {
    const { debug: _old, ...rest } = props.config;
    save(machineWide ? rest : { ...rest, debug: true });
  };

  return (
    <section aria-label="Debug logs">
      <h2>Debug logs</h2>
      <Problem text={problem} />
      <label class="check">
        <input type="checkbox" checked={machineWide} disabled={busy} onChange={toggleMachine} /> The whole machine
      </label>
      {LISTS.flatMap((list) =>
        ((props.config[list.key] as Entry[] | undefined) ?? []).map((entry, index) => {
          const on = list.debug(entry);
          const toggle = () => {
            const entries = [...(props.config[list.key] as Entry[])];
            entries[index] = list.set(entry, !on);
            save({ ...props.config, [list.key]: entries });
          };
          return (
            <label class="check" key={`${list.key}/${index}`}>
              <input type="checkbox" checked={on} disabled={busy} onChange={toggle} /> {String(entry.name ?? `${list.key}[${index}]`)}
            </label>
          );
        }),
      )}
    </section>
  );
}
