// Where a sensor that talks to its own port or bus (not through a board) gets its IO: the host
// decides (the Linux devices on a server, the simulated board in tests and on the sim machine).
import type { IOProvider } from "../../hal/io.js";
import type { ResourceConfig } from "../config/index.js";

export interface DeviceIOOptions {
  /** The IO a sensor's port or bus is opened on: the Linux devices, a simulated board, a test's own. */
  ioForDevices(config: ResourceConfig): IOProvider | Promise<IOProvider>;
}
