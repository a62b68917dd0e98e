// GetMachineStatus over Connect JSON, flattened to `full name -> state (and error)`, for tests
// that wait for resources and modules to reach a state.
export interface StatusEntry {
  state: string;
  error: string;
}

export async function machineStatus(url: string): Promise<Map<string, StatusEntry>> {
  const response = await fetch(`${url}/viam.robot.v1.RobotService/GetMachineStatus`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  if (!response.ok) throw new Error(`GetMachineStatus answered ${response.status}`);
  const body = (await response.json()) as {
    resources?: Array<{ name: { namespace: string; type: string; subtype: string; name: string }; state: string; error?: string }>;
  };
  const out = new Map<string, StatusEntry>();
  for (const r of body.resources ?? []) {
    const n = r.name;
    out.set(`${n.namespace}:${n.type}:${n.subtype}/${n.name}`, { state: r.state.replace(/^STATE_/, ""), error: r.error ?? "" });
  }
  return out;
}

/** The status of one resource or module (`rdk:module:process/<name>`), undefined when not listed. */
export async function statusOf(url: string, fullName: string): Promise<StatusEntry | undefined> {
  return (await machineStatus(url)).get(fullName);
}
