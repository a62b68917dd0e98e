// Machine configuration: parses per second of a 200-resource configuration on Node and in XS
// (the MCU bundle, timed as a loop inside the worker, with XS's compute meter per parse), and
// the minified size of the MCU bundle and of the configuration code within it.
import { statSync } from "node:fs";
import { build } from "esbuild";
import { parseMachineConfig } from "../../core/index.js";
import { CoreInXs, mcuBundlePath } from "../xs/core-in-xs.js";
import { perSecond, report } from "./report.js";

function machineWith(resources: number): string {
  const apis = ["motor", "sensor", "servo", "encoder", "board", "camera", "generic"];
  const components = Array.from({ length: resources - 20 }, (_, i) => ({
    name: `part-${i}`,
    api: `rdk:component:${apis[i % apis.length]}`,
    model: i % 3 === 0 ? "fake" : "acme:demo:widget",
    attributes: { pin: String(i % 40), max_rpm: 100 + i, nested: { gains: [0.1, 0.2, 0.3] } },
    depends_on: i > 0 ? [`part-${i - 1}`] : [],
    ...(i % 10 === 0 ? { log_configuration: { level: "Debug" } } : {}),
  }));
  const services = Array.from({ length: 20 }, (_, i) => ({ name: `svc-${i}`, type: "generic", attributes: { n: i } }));
  return JSON.stringify({
    components,
    services,
    modules: [{ name: "widgets", executable_path: "/opt/widgets/run", env: { BUS: "1" } }],
    log: [{ pattern: "rdk.resource_manager.rdk:component:motor/*", level: "debug" }],
    network: { bind_address: "0.0.0.0:8080" },
    agent: {
      additional_networks: { home: { type: "wifi", ssid: "home", psk: "password1" } },
      system_configuration: { forward_system_logs: "all,-gdm" },
    },
  });
}

const text = machineWith(200);
const check = parseMachineConfig(text);
if (check.issues.length > 0 || check.config?.components.length !== 180) {
  throw new Error(`the benchmark configuration is not clean: ${JSON.stringify(check.issues.slice(0, 3))}`);
}

report("config parse 200 resources (node)", perSecond(() => parseMachineConfig(text)), "parses/s");

const xs = await CoreInXs.start();
try {
  await xs.evaluate(`globalThis.benchConfigText = ${JSON.stringify(text)};`);
  const loop = (n: number) => `for (let i = 0; i < ${n}; i++) globalThis.svcCore.parseMachineConfig(globalThis.benchConfigText);`;
  await xs.evaluate(loop(5));
  const runs = 40;
  const start = performance.now();
  const { meters } = await xs.evaluate(loop(runs));
  const seconds = (performance.now() - start) / 1000;
  report("config parse 200 resources (xs)", runs / seconds, "parses/s");
  report("config parse 200 resources (xs compute)", meters.compute / runs, "compute/parse");
} finally {
  await xs.close();
}

report("mcu bundle dist/mcu/core.mjs (minified)", statSync(mcuBundlePath).size / 1024, "KB", "< 150 KB");
for (const [name, entry] of [
  ["config code in the mcu bundle (minified)", "core/config/index.ts"],
  ["config schema and its checker (minified)", "core/config/schema-pass.ts"],
] as const) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2020",
    write: false,
    logLevel: "error",
  });
  report(name, result.outputFiles[0]!.contents.length / 1024, "KB", name.startsWith("config code") ? "< 60 KB" : undefined);
}
