// The simulation's own process: connects to the private bus, owns NetworkManager's name, serves
// the simulated NetworkManager, and talks with the test process over the IPC channel (control
// requests in; events and replies out). It exits when the channel closes.
import { sessionBus } from "dbus-next";
import { createSimNetworkManagerService } from "./sim-network-manager-service.js";
import type { ControlMessage, ControlRequest, SimWorld } from "./sim-types.js";

const DO_NOT_QUEUE = 4;
const PRIMARY_OWNER = 1;

function send(message: ControlMessage) {
  process.send?.(message);
}

async function main() {
  const address = process.env.SVC_SIM_NM_BUS;
  const world = JSON.parse(process.env.SVC_SIM_NM_WORLD ?? "{}") as SimWorld;
  if (!address) throw new Error("SVC_SIM_NM_BUS is not set");
  const bus = sessionBus({ busAddress: address });
  const service = createSimNetworkManagerService(bus, world, (event) => send({ type: "event", event }));
  const reply = await bus.requestName("org.freedesktop.NetworkManager", DO_NOT_QUEUE);
  if (reply !== PRIMARY_OWNER) throw new Error(`could not own org.freedesktop.NetworkManager (reply ${reply})`);
  process.on("message", (raw: { id: number; request: ControlRequest }) => {
    try {
      send({ type: "reply", id: raw.id, ok: true, value: service.control(raw.request) ?? null });
    } catch (error) {
      send({ type: "reply", id: raw.id, ok: false, error: String(error instanceof Error ? error.message : error) });
    }
  });
  process.on("disconnect", () => {
    bus.disconnect();
    process.exit(0);
  });
  send({ type: "ready" });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
