// A private system-type dbus-daemon in a test's folder, configured like the machine's system bus
// for NetworkManager: only what /usr/share/dbus-1/system.d allows may own a name (root may own
// org.freedesktop.NetworkManager), method calls are denied unless a policy allows them.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface PrivateSystemBus {
  /** `unix:path=...`, for dbus-next `sessionBus({ busAddress })` or DBUS_SYSTEM_BUS_ADDRESS. */
  address: string;
  pid: number;
  stop(): Promise<void>;
}

/** The bus configuration: listening on `socket`, the machine's NetworkManager policy included. */
export function systemBusConfig(socket: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
  </policy>
  <includedir>/usr/share/dbus-1/system.d</includedir>
</busconfig>
`;
}

export async function startPrivateSystemBus(dir: string): Promise<PrivateSystemBus> {
  const socket = join(dir, "bus.sock");
  const config = join(dir, "bus.conf");
  writeFileSync(config, systemBusConfig(socket));
  const child = spawn("dbus-daemon", [`--config-file=${config}`, "--nofork", "--nopidfile", "--print-address=1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const address = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`dbus-daemon did not start: ${err}`)), 10_000);
    child.once("error", (error) => reject(error));
    child.once("exit", (code) => reject(new Error(`dbus-daemon exited (${code}): ${err}`)));
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out.split("\n")[0]!.trim());
      }
    });
  });
  return {
    address,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
