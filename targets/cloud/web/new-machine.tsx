// A new machine, by name, in one of the person's locations: svc-cloud makes it with its main part,
// and the page opens that part, where "New credentials file" gives what installs it. Nothing can be
// sent before the person's locations have arrived (a machine needs one).
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface Location {
  id: string;
  label: string;
}

async function locations(): Promise<Location[]> {
  const { organizations = [] } = await appCall<{ organizations?: { id: string; name: string }[] }>("ListOrganizations", {});
  const each = await Promise.all(
    organizations.map(async (organization) =>
      ((await appCall<{ locations?: { id: string; name: string }[] }>("ListLocations", { organizationId: organization.id })).locations ?? []).map((l) => ({
        id: l.id,
        label: organizations.length > 1 ? `${organization.name} / ${l.name}` : l.name,
      })),
    ),
  );
  return each.flat();
}

export function NewMachine() {
  // Undefined until the locations arrive.
  const [choices, setChoices] = useState<Location[] | undefined>(undefined);
  const [problem, run] = useProblem();
  useEffect(() => run(locations(), setChoices), []);

  const create = (form: HTMLFormElement) => {
    const fields = new FormData(form);
    const name = String(fields.get("name") ?? "").trim();
    const made = appCall<{ id: string }>("NewRobot", { name, location: String(fields.get("location") ?? "") }).then((robot) =>
      appCall<{ parts?: { id: string; mainPart?: boolean }[] }>("GetRobotParts", { robotId: robot.id }),
    );
    run(made, ({ parts = [] }) => {
      const main = parts.find((p) => p.mainPart) ?? parts[0];
      if (main) location.hash = `#/part/${main.id}`;
    });
  };

  return (
    <form
      class="inline"
      aria-label="New machine"
      onSubmit={(e) => {
        e.preventDefault();
        create(e.currentTarget as HTMLFormElement);
      }}
    >
      <label>
        New machine
        <input name="name" type="text" maxLength={100} placeholder="Name" required />
      </label>
      <label>
        Location
        <select name="location" required>
          {(choices ?? []).map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!choices?.length}>
        Create machine
      </button>
      {choices?.length === 0 && <p>There is no location to make a machine in.</p>}
      <Problem text={problem} />
    </form>
  );
}
