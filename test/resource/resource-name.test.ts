import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatApi,
  formatResourceName,
  isRemoteName,
  lastNamePart,
  parseApi,
  parseModel,
  parseResourceName,
  simpleNameProblem,
} from "../../core/resource/index.js";

describe("resource names", () => {
  it("reads and prints an API triplet plus a name", () => {
    const parsed = parseResourceName("rdk:component:motor/left");
    expect(parsed).toEqual({ ok: true, value: { namespace: "rdk", type: "component", subtype: "motor", name: "left" } });
    if (parsed.ok) expect(formatResourceName(parsed.value)).toBe("rdk:component:motor/left");
    expect(parseApi("acme:service:nav")).toEqual({ ok: true, value: { namespace: "acme", type: "service", subtype: "nav" } });
    expect(formatApi({ namespace: "acme", type: "service", subtype: "nav" })).toBe("acme:service:nav");
    expect(parseModel("rdk:builtin:fake")).toEqual({ ok: true, value: { namespace: "rdk", family: "builtin", name: "fake" } });
  });

  it("prints back exactly what it read, for any valid name", () => {
    const part = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(part, part, part, part, (ns, type, subtype, name) => {
        const text = `${ns}:${type}:${subtype}/${name}`;
        const parsed = parseResourceName(text);
        return parsed.ok && formatResourceName(parsed.value) === text;
      }),
    );
  });

  it("says what is wrong with a malformed name", () => {
    expect(parseResourceName("left")).toEqual({ ok: false, error: '"left": a full resource name is "<namespace>:<type>:<subtype>/<name>"' });
    expect(parseResourceName("rdk:motor/left")).toEqual({
      ok: false,
      error: '"rdk:motor": an API must be three parts of letters, digits, "_" or "-" joined by ":" (like rdk:component:motor)',
    });
    expect(parseResourceName("rdk:component:motor/le ft")).toEqual({ ok: false, error: '"le ft": a name may contain only letters, digits, "_" and "-"' });
    expect(parseModel("fake")).toMatchObject({ ok: false });
    expect(simpleNameProblem("b-1_x")).toBeUndefined();
  });

  it("reads a remote's resource names, through one remote or several, and says how to write Viam's older form", () => {
    expect(parseResourceName("rdk:component:motor/pi:left")).toEqual({ ok: true, value: { namespace: "rdk", type: "component", subtype: "motor", name: "pi:left" } });
    expect(parseResourceName("rdk:component:motor/pi:arm-pi:left")).toMatchObject({ ok: true, value: { name: "pi:arm-pi:left" } });
    expect(parseResourceName("pi:rdk:component:motor/left")).toEqual({
      ok: false,
      error: '"pi:rdk:component:motor/left": a remote\'s resource is named "rdk:component:motor/pi:left"',
    });
    expect(simpleNameProblem("pi:left")).toBeUndefined();
    expect(simpleNameProblem("pi::left")).toBe('"pi::left": a name may contain only letters, digits, "_" and "-"');
    expect(isRemoteName("pi:left")).toBe(true);
    expect(isRemoteName("left")).toBe(false);
    expect(lastNamePart("pi:arm-pi:left")).toBe("left");
  });
});
