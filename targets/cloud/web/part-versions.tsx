// Which svc-server and svc-agent the part's machine installs: its config's
// `agent.version_control` ("stable" when unset, "dev", a version svc-cloud has a release of, or a
// URL), saved as a new revision based on the one shown. The versions svc-cloud holds releases of
// are offered; svc-cloud checks what is saved.
import { useEffect, useState } from "preact/hooks";
import { withVersionControl } from "../../../core/agent/version-control.js";
import { appCall, cloudCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

type Config = Record<string, unknown>;

/** The config's products, as version_control names them, and as svc-cloud's releases do. */
const PRODUCTS = [
  { key: "svc-server", release: "svc-server" },
  { key: "agent", release: "svc-agent" },
] as const;

function versionControlOf(config: Config): Record<string, string> {
  const agent = (config.agent ?? {}) as Record<string, unknown>;
  return { ...((agent.version_control ?? {}) as Record<string, string>) };
}

export function PartVersions(props: { partId: string; config: Config; lastUpdated: string; onSaved: () => void }) {
  const [known, setKnown] = useState<Record<string, string[]>>({});
  const [problem, run] = useProblem();
  // What the person is typing, kept across re-renders (the releases arriving, a refresh) and
  // started afresh from each revision the page is shown.
  const [draft, setDraft] = useState(() => versionControlOf(props.config));
  useEffect(() => setDraft(versionControlOf(props.config)), [props.lastUpdated]);

  useEffect(() => {
    run(cloudCall<{ releases?: { product: string; version: string }[] }>("ListReleases", {}), ({ releases = [] }) => {
      const versions: Record<string, string[]> = {};
      for (const r of releases) versions[r.product] = [...new Set([...(versions[r.product] ?? []), r.version])];
      setKnown(versions);
    });
  }, []);

  const save = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const specs = Object.fromEntries(PRODUCTS.map(({ key }) => [key, String(form.get(key) ?? "")]));
    const config = withVersionControl(props.config, specs);
    run(appCall("UpdateRobotPart", { id: props.partId, name: "", robotConfig: config, lastKnownUpdate: props.lastUpdated }), props.onSaved);
  };

  return (
    <section aria-label="Versions">
      <h2>Versions</h2>
      <Problem text={problem} />
      <form class="controls" onSubmit={save} aria-label="Version control">
        {PRODUCTS.map(({ key, release }) => (
          <label key={key}>
            {release}
            <input
              name={key}
              list={`${key}-versions`}
              value={draft[key] ?? "stable"}
              onInput={(e) => setDraft({ ...draft, [key]: (e.currentTarget as HTMLInputElement).value })}
              aria-label={`${release} version`}
            />
            <datalist id={`${key}-versions`}>
              {["stable", "dev", ...(known[release] ?? [])].map((v) => (
                <option value={v} />
              ))}
            </datalist>
          </label>
        ))}
        <button type="submit">Save versions</button>
      </form>
    </section>
  );
}
