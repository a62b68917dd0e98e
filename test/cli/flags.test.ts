import { describe, expect, it } from "vitest";
import { formatHelp, parseFlags, UsageError, type FlagSpec } from "../../targets/linux/cli/flags.js";

const specs: FlagSpec[] = [
  { name: "config", kind: "string", aliases: ["c"], default: "/etc/svc.json", help: "config" },
  { name: "debug", kind: "bool", aliases: ["d"], env: "SVC_DEBUG", help: "debug" },
  { name: "webrtc", kind: "bool", default: true, help: "webrtc" },
];

describe("Go-style flags", () => {
  it("accepts one or two dashes, `=value` and a separate value", () => {
    for (const argv of [["-config", "a.json"], ["--config", "a.json"], ["-config=a.json"], ["--config=a.json"], ["-c", "a.json"]]) {
      expect(parseFlags(specs, argv).values.config).toBe("a.json");
    }
  });

  it("takes booleans without a value, or with =true/=false", () => {
    expect(parseFlags(specs, ["-debug"]).values.debug).toBe(true);
    expect(parseFlags(specs, ["--debug=false"]).values.debug).toBe(false);
    expect(parseFlags(specs, ["-webrtc=false"]).values.webrtc).toBe(false);
    expect(parseFlags(specs, []).values.webrtc).toBe(true);
  });

  it("fills defaults and records which options were given", () => {
    const parsed = parseFlags(specs, ["-d"]);
    expect(parsed.values.config).toBe("/etc/svc.json");
    expect([...parsed.given]).toEqual(["debug"]);
  });

  it("reads an option from its environment variable when the command line does not set it", () => {
    expect(parseFlags(specs, [], { SVC_DEBUG: "1" }).values.debug).toBe(true);
    expect(parseFlags(specs, ["-debug=false"], { SVC_DEBUG: "1" }).values.debug).toBe(false);
    expect(() => parseFlags(specs, [], { SVC_DEBUG: "maybe" })).toThrow(/invalid boolean value "maybe" for SVC_DEBUG/);
  });

  it("names the option in every mistake", () => {
    expect(() => parseFlags(specs, ["-bogus"])).toThrow(new UsageError("flag provided but not defined: -bogus"));
    expect(() => parseFlags(specs, ["-config"])).toThrow(/flag needs an argument: -config/);
    expect(() => parseFlags(specs, ["-debug=perhaps"])).toThrow(/invalid boolean value "perhaps" for -debug/);
  });

  it("keeps positional arguments, and everything after --", () => {
    expect(parseFlags(specs, ["x", "--", "-debug"]).positional).toEqual(["x", "-debug"]);
  });

  it("prints one help line per option", () => {
    const help = formatHelp("Usage: t", specs, "gnu");
    expect(help).toContain("-c, --config");
    expect(help).toContain("env SVC_DEBUG");
    expect(help.split("\n").filter((l) => l.startsWith("  -"))).toHaveLength(specs.length);
  });
});
