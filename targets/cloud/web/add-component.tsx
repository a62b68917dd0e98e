// The form view of a part's config, for the common case: add a component or service of a known
// API and model (svc-server's own models, as `svc-server -dump-resources` lists them, served as
// /app/models.json), its attributes asked for one by one from the model's schema. The new entry
// is added to the config text being edited, where the validator checks it like any other.
import { useEffect, useState } from "preact/hooks";
import { Problem } from "../../web-ui/problem.js";

interface Property {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
}

export interface KnownModel {
  api: string;
  model: string;
  attributes_schema: { properties?: Record<string, Property>; required?: string[] } | null;
}

let known: Promise<KnownModel[]> | undefined;

/** svc-server's models, read once per page. */
function knownModels(): Promise<KnownModel[]> {
  known ??= fetch("/app/models.json", { credentials: "same-origin" }).then((res) => {
    if (!res.ok) throw new Error(`the list of models cannot be read: ${res.status} ${res.statusText}`);
    return res.json() as Promise<KnownModel[]>;
  });
  return known;
}

/** An attribute's value as typed, or undefined when left empty; throws a message when it cannot be one. */
function attributeValue(name: string, property: Property, raw: string): unknown {
  if (raw === "") return undefined;
  const types = ([] as string[]).concat(property.type ?? []);
  if (types.includes("boolean")) return raw === "true";
  if ((types.includes("number") || types.includes("integer")) && /^-?[0-9.eE+-]+$/.test(raw)) return Number(raw);
  if (types.includes("string")) return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new Error(`${name} must be JSON (${types.join(" or ") || "any value"})`);
  }
}

function AttributeField(props: { name: string; property: Property; required: boolean }) {
  const { name, property } = props;
  const types = ([] as string[]).concat(property.type ?? []);
  const label = `${name}${props.required ? " (required)" : ""}`;
  const hint = property.description ? <small>{property.description}</small> : null;
  if (property.enum) {
    return (
      <label>
        {label}
        <select name={`attribute:${name}`}>
          <option value="">(default{property.default !== undefined ? `: ${String(property.default)}` : ""})</option>
          {property.enum.map((value) => (
            <option value={String(value)}>{String(value)}</option>
          ))}
        </select>
        {hint}
      </label>
    );
  }
  if (types.length === 1 && types[0] === "boolean") {
    return (
      <label>
        {label}
        <select name={`attribute:${name}`}>
          <option value="">(default{property.default !== undefined ? `: ${String(property.default)}` : ""})</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
        {hint}
      </label>
    );
  }
  const placeholder = property.default !== undefined ? JSON.stringify(property.default) : types.join(" or ");
  return (
    <label>
      {label}
      {types.length === 1 && (types[0] === "number" || types[0] === "integer") ? (
        <input name={`attribute:${name}`} type="number" step="any" placeholder={placeholder} />
      ) : (
        <input name={`attribute:${name}`} type="text" placeholder={placeholder} />
      )}
      {hint}
    </label>
  );
}

export function AddComponent(props: { text: string; onAdd: (config: object) => void }) {
  const [models, setModels] = useState<KnownModel[]>([]);
  const [api, setApi] = useState("");
  const [model, setModel] = useState("");
  const [problem, setProblem] = useState("");

  useEffect(() => {
    knownModels().then(setModels, (thrown: Error) => setProblem(thrown.message));
  }, []);

  const apis = [...new Set(models.map((m) => m.api))];
  const chosen = models.find((m) => m.api === api && m.model === model);
  const schema = chosen?.attributes_schema ?? undefined;

  const add = (form: HTMLFormElement) => {
    const fields = new FormData(form);
    const name = String(fields.get("name") ?? "").trim();
    if (!chosen || name === "") return setProblem("Choose an API and a model, and give it a name.");
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(props.text) as Record<string, unknown>;
    } catch {
      return setProblem("The config above must be valid JSON before the form can add to it.");
    }
    const list = api.split(":")[1] === "service" ? "services" : "components";
    const entries = Array.isArray(config[list]) ? (config[list] as { name?: unknown }[]) : [];
    if (entries.some((entry) => entry.name === name)) return setProblem(`${list} already has one named ${name}.`);
    const attributes: Record<string, unknown> = {};
    try {
      for (const [key, property] of Object.entries(schema?.properties ?? {})) {
        const value = attributeValue(key, property, String(fields.get(`attribute:${key}`) ?? "").trim());
        if (value !== undefined) attributes[key] = value;
      }
    } catch (thrown) {
      return setProblem((thrown as Error).message);
    }
    setProblem("");
    form.reset();
    props.onAdd({ ...config, [list]: [...entries, { name, api, model, attributes }] });
  };

  return (
    <form
      class="add-component"
      aria-label="Add a component or service"
      onSubmit={(e) => {
        e.preventDefault();
        add(e.currentTarget as HTMLFormElement);
      }}
    >
      <h3>Add a component or service</h3>
      <Problem text={problem} />
      <label>
        API
        <select name="api" value={api} onChange={(e) => (setApi((e.currentTarget as HTMLSelectElement).value), setModel(""))}>
          <option value="">Choose…</option>
          {apis.map((a) => (
            <option value={a}>{a}</option>
          ))}
        </select>
      </label>
      <label>
        Model
        <select name="model" value={model} onChange={(e) => setModel((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose…</option>
          {models
            .filter((m) => m.api === api)
            .map((m) => (
              <option value={m.model}>{m.model}</option>
            ))}
        </select>
      </label>
      <label>
        Name
        <input name="name" type="text" autocomplete="off" />
      </label>
      {schema &&
        Object.entries(schema.properties ?? {}).map(([key, property]) => (
          <AttributeField key={`${api}/${model}/${key}`} name={key} property={property} required={schema.required?.includes(key) ?? false} />
        ))}
      <button type="submit" disabled={!chosen}>
        Add
      </button>
    </form>
  );
}
