// One machine: its parts (the main one first), each with when it was last seen, opened at its own
// page; a new part made by name (a second computer of the same machine, a camera Pi); and removing
// the machine, which revokes its parts' keys. Reached from the fleet at #/machine/<id>.
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface Part {
  id: string;
  name: string;
  mainPart?: boolean;
  lastAccess?: string;
}

export function MachinePage(props: { machineId: string }) {
  const [machine, setMachine] = useState<{ name: string } | undefined>(undefined);
  const [parts, setParts] = useState<Part[]>([]);
  const [problem, run] = useProblem();
  const [version, setVersion] = useState(0);

  useEffect(() => {
    run(appCall<{ robot: { name: string } }>("GetRobot", { id: props.machineId }), (answer) => setMachine(answer.robot));
    run(appCall<{ parts?: Part[] }>("GetRobotParts", { robotId: props.machineId }), (answer) =>
      setParts([...(answer.parts ?? [])].sort((a, b) => Number(b.mainPart ?? false) - Number(a.mainPart ?? false) || a.name.localeCompare(b.name))),
    );
  }, [props.machineId, version]);

  const addPart = (form: HTMLFormElement) => {
    const partName = String(new FormData(form).get("name") ?? "").trim();
    run(appCall("NewRobotPart", { robotId: props.machineId, partName }), () => (form.reset(), setVersion(version + 1)));
  };
  const remove = () => {
    if (confirm(`Remove ${machine?.name ?? "this machine"}? Its parts' keys stop working at once.`)) run(appCall("DeleteRobot", { id: props.machineId }), () => (location.hash = "#/"));
  };

  return (
    <article aria-label="Machine">
      <p>
        <a href="#/">Fleet</a>
      </p>
      <Problem text={problem} />
      {machine && (
        <>
          <h1>{machine.name}</h1>
          <section aria-label="Parts">
            <h2>Parts</h2>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>Part</th>
                    <th>Last seen</th>
                  </tr>
                </thead>
                <tbody>
                  {parts.map((part) => (
                    <tr key={part.id}>
                      <td>
                        <a href={`#/part/${part.id}`}>{part.name}</a>
                        {part.mainPart ? " (main)" : ""}
                      </td>
                      <td>{part.lastAccess ? new Date(part.lastAccess).toLocaleString() : "never"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <form
              class="inline"
              aria-label="New part"
              onSubmit={(e) => {
                e.preventDefault();
                addPart(e.currentTarget as HTMLFormElement);
              }}
            >
              <label>
                Part name
                <input name="name" type="text" maxLength={100} required />
              </label>
              <button type="submit">Add part</button>
            </form>
          </section>
          <p>
            <button type="button" class="danger" onClick={remove}>
              Remove machine
            </button>
          </p>
        </>
      )}
    </article>
  );
}
