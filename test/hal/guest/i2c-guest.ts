// Runs inside the qemu guest, where the kernel's i2c-stub serves three chips on one SMBus
// adapter: 0x50 as scratch registers for the conformance harness, 0x40 standing in for an INA219
// and 0x48 for an ADS1115. Each result is printed as one `SVC-RESULT <json>` line.
import { readdirSync, readFileSync } from "node:fs";
import type { Board, PowerSensor } from "../../../core/components/index.js";
import { openLinuxIO } from "../../../hal/linux/index.js";
import { linuxBoardModels } from "../../../targets/linux/server/linux-models.js";
import { runCli } from "../../../tools/hal-conformance/cli.js";
import { createTestMachine, entry } from "../../components/test-machine.js";

const emit = (name: string, value: unknown) => process.stdout.write(`SVC-RESULT ${JSON.stringify({ name, value })}\n`);

function stubBus(): number {
  for (const adapter of readdirSync("/sys/class/i2c-adapter")) {
    if (readFileSync(`/sys/class/i2c-adapter/${adapter}/name`, "utf8").includes("stub")) return Number(adapter.slice("i2c-".length));
  }
  throw new Error("no i2c-stub adapter");
}

async function main() {
  const bus = stubBus();
  const lines: string[] = [];
  const code = await runCli(["--backend", "linux", "--i2c", `${bus}:0x50`], (line) => lines.push(line));
  emit("harness", { code, lines });

  const host = await openLinuxIO();
  const setup = new host.io.SMBus!({ bus, address: 0x40, hz: 100_000 });
  // INA219: 12.0 V on the bus (3000 steps of 4 mV, shifted by 3), 25.00 mV across the shunt.
  setup.writeUint16(2, 3000 << 3, true);
  setup.writeUint16(1, 2500, true);
  setup.close();
  const adc = new host.io.SMBus!({ bus, address: 0x48, hz: 100_000 });
  // ADS1115 conversion register: half of full scale.
  adc.writeUint16(0, 0x4000, true);

  const machine = createTestMachine({}, { io: host.io, models: linuxBoardModels({ openIO: async () => host }) });
  try {
    const power = await machine.build<PowerSensor>(entry("power_sensor", "power", { i2c_bus: String(bus), shunt_resistance: 0.1 }, "rdk:builtin:ina219"));
    emit("ina219", { readings: await power.getReadings(), config: (() => {
      const check = new host.io.SMBus!({ bus, address: 0x40, hz: 100_000 });
      try {
        return check.readUint16(0, true);
      } finally {
        check.close();
      }
    })() });

    const board = await machine.build<Board>(
      entry("board", "b", { analogs: [{ name: "level", pin: "1", i2c_bus: bus, i2c_address: 0x48 }] }, "rdk:builtin:linux-board"),
    );
    const reading = await board.readAnalogReader("level");
    emit("ads1115", { reading, config: adc.readUint16(1, true) });
  } finally {
    adc.close();
    await machine.closeAll();
  }
}

main().then(
  () => emit("done", true),
  (error: Error) => emit("error", error.stack ?? String(error)),
);
