// -untrusted-env finds every entry that would start a process or a shell, with where it is in
// the file, and nothing else.
import { describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../../core/index.js";
import { findUntrustedEntries, untrustedEntryIssues } from "../../../targets/linux/server/system/index.js";

const written = {
  components: [
    { name: "broken", api: "rdk:component:sensor" },
    { name: "temp", api: "rdk:component:sensor", model: "fake" },
    { name: "runner", api: "rdk:component:generic", model: "rdk:builtin:process", attributes: { name: "/usr/bin/python3" } },
  ],
  services: [
    { name: "shell", api: "rdk:service:shell", model: "rdk:builtin:builtin" },
    { name: "sh", type: "generic", namespace: "rdk", model: "shell" },
    { name: "helper", api: "rdk:service:generic", model: "fake" },
  ],
  modules: [
    { type: "local", name: "camera-module", executable_path: "/opt/camera/run.sh" },
    { type: "registry", name: "acme-sensors", module_id: "acme:sensors", version: "1.2.0" },
  ],
};

describe("findUntrustedEntries", () => {
  const { config } = parseMachineConfig(JSON.stringify(written));

  it("lists every module and every process or shell entry, with its place in the file", () => {
    expect(findUntrustedEntries(config!, written)).toEqual([
      {
        path: "modules[0]",
        section: "modules",
        name: "camera-module",
        starts: "/opt/camera/run.sh",
        message: 'module "camera-module" runs a process of its own (/opt/camera/run.sh); -untrusted-env refuses it',
      },
      {
        path: "modules[1]",
        section: "modules",
        name: "acme-sensors",
        starts: "registry module acme:sensors@1.2.0",
        message: 'module "acme-sensors" runs a process of its own (registry module acme:sensors@1.2.0); -untrusted-env refuses it',
      },
      {
        path: "components[2]",
        section: "components",
        name: "runner",
        starts: "/usr/bin/python3",
        message: '"runner" (rdk:component:generic, model rdk:builtin:process) starts a process (/usr/bin/python3); -untrusted-env refuses it',
      },
      {
        path: "services[0]",
        section: "services",
        name: "shell",
        starts: "rdk:builtin:builtin",
        message: '"shell" (rdk:service:shell, model rdk:builtin:builtin) runs shell commands; -untrusted-env refuses it',
      },
      {
        path: "services[1]",
        section: "services",
        name: "sh",
        starts: "rdk:builtin:shell",
        message: '"sh" (rdk:service:generic, model rdk:builtin:shell) runs shell commands; -untrusted-env refuses it',
      },
    ]);
  });

  it("without the written file, paths are places in the parsed configuration", () => {
    expect(findUntrustedEntries(config!).map((entry) => entry.path)).toEqual(["modules[0]", "modules[1]", "components[1]", "services[0]", "services[1]"]);
  });

  it("finds nothing in a machine of built-in models only", () => {
    const { config: plain } = parseMachineConfig(JSON.stringify({ components: [written.components[1]], services: [written.services[2]] }));
    expect(findUntrustedEntries(plain!)).toEqual([]);
  });

  it("gives the findings as configuration errors", () => {
    const issues = untrustedEntryIssues(findUntrustedEntries(config!, written));
    expect(issues[2]).toEqual({
      path: "components[2]",
      message: '"runner" (rdk:component:generic, model rdk:builtin:process) starts a process (/usr/bin/python3); -untrusted-env refuses it',
      severity: "error",
    });
  });
});
