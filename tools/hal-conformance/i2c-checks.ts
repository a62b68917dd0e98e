// I2C checks on a device with scratch registers: SMBus byte, word (both byte orders) and block
// register access, and plain I2C register write then read with a repeated start.
import { requireIO } from "../../hal/io.js";
import { expectEqual, type Check, type ConformanceTarget, type I2CScratch } from "./check.js";

const hex = (n: number) => `0x${n.toString(16)}`;

export function i2cChecks(target: ConformanceTarget, scratch: I2CScratch): Check[] {
  const { bus, address, register: r } = scratch;
  const where = `${hex(address)} on bus ${bus}`;
  const open = () => new (requireIO(target.io, "SMBus"))({ bus, address, hz: 100_000 });
  const withSMBus = async (body: (s: ReturnType<typeof open>) => void) => {
    const s = open();
    try {
      body(s);
    } finally {
      s.close();
    }
  };

  return [
    {
      capability: `smbus byte ${where}`,
      run: () =>
        withSMBus((s) => {
          for (const value of [0xa5, 0x5a, 0x00, 0xff]) {
            s.writeUint8(r, value);
            expectEqual(s.readUint8(r), value, `register ${hex(r)}`);
          }
        }),
    },
    {
      capability: `smbus word ${where}`,
      run: () =>
        withSMBus((s) => {
          s.writeUint16(r, 0x1234);
          expectEqual(s.readUint16(r), 0x1234, `little-endian word at ${hex(r)}`);
          expectEqual(s.readUint8(r), 0x34, `low byte first at ${hex(r)}`);
          s.writeUint16(r, 0xbeef, true);
          expectEqual(s.readUint16(r, true), 0xbeef, `big-endian word at ${hex(r)}`);
          expectEqual(s.readUint8(r), 0xbe, `high byte first at ${hex(r)}`);
        }),
    },
    {
      capability: `smbus block ${where}`,
      run: () =>
        withSMBus((s) => {
          const data = Uint8Array.from({ length: 16 }, (_, i) => (i * 17 + 3) & 0xff);
          s.writeBuffer(r, data);
          const back = s.readBuffer(r, data.length);
          expectEqual(Array.from(back).join(","), Array.from(data).join(","), `16 registers from ${hex(r)}`);
        }),
    },
    {
      capability: `i2c write/read ${where}`,
      run: async () => {
        const i2c = new (requireIO(target.io, "I2C"))({ bus, address, hz: 100_000 });
        try {
          i2c.write(Uint8Array.of(r, 0xc3, 0x3c));
          const back = i2c.writeRead(Uint8Array.of(r), 2);
          expectEqual(Array.from(back).join(","), "195,60", `2 registers from ${hex(r)} after writing 0xc3 0x3c`);
        } finally {
          i2c.close();
        }
      },
    },
  ];
}
