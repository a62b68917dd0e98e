// Stopping the real svc-server process with a signal: SIGTERM (and SIGINT, as from a terminal)
// closes every resource, moving ones included, says so in its log, and exits 0, leaving the
// port free.
import * as VIAM from "@viamrobotics/sdk";
import { describe, expect, it } from "vitest";
import { logLines } from "../helpers/log-lines.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "pins", api: "rdk:component:board", model: "fake", attributes: {} },
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: {} },
    { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { encoder: "ticks" } },
    { name: "ticks", api: "rdk:component:encoder", model: "fake", attributes: {} },
    { name: "lift", api: "rdk:component:motor", model: "gpio", attributes: { board: "pins", pins: { pwm: "12", dir: "16" } } },
  ],
};

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  describe(signal, () => {
    it("closes every resource, logs it, exits 0 and frees the port", async () => {
      const server = await startSvcServer(config);
      try {
        const robot = await dialSdk(server.sdkHost);
        try {
          // Resources in use when the signal comes: a motor turning, one driving board pins.
          await new VIAM.MotorClient(robot, "wheel").setPower(0.5);
          await new VIAM.MotorClient(robot, "lift").setPower(0.3);
          expect((await robot.getMachineStatus()).resources).toHaveLength(5);
        } finally {
          await robot.disconnect();
        }

        expect(await server.stop(signal)).toBe(0);

        const lines = logLines(server.stdout());
        expect(lines.find((l) => l.msg === "shutting down")).toMatchObject({ reason: `received ${signal}` });
        expect(lines.find((l) => l.msg === "resources closed")).toMatchObject({ closed: 5, failed: 0, hung: 0 });
        expect(lines.filter((l) => l.level === "error")).toEqual([]);
        expect(await fetch(`${server.url}/restart_status`).catch((e: unknown) => e)).toBeInstanceOf(Error);
      } finally {
        await server.stop("SIGKILL");
      }
    });
  });
}
