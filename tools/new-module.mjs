// Makes a new module folder that runs as it is, with nothing to build and nothing to install:
//   npm run new-module -- DIR [--model namespace:family:name]
// DIR gets the module (<name>.mjs, executable, a sensor model to start from), the module SDK in one
// file (svc-module-sdk.mjs, from this checkout's build) and machine.json, a configuration that runs
// it with svc-server. The module is plain JavaScript for Node 20, so a robot runs it without a
// compiler.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SDK_BUNDLE = join(root, "dist/linux/module-sdk.mjs");
const MODEL_PATTERN = /^[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/;

function usage(message) {
  if (message) console.error(`new-module: ${message}`);
  console.error("usage: npm run new-module -- DIR [--model namespace:family:name]");
  process.exit(2);
}

/** The module's source: what the guide in docs shows, word for word. */
export function moduleSource(model) {
  return `#!/usr/bin/env node
// A module for svc: the sensor model ${model}. svc-server starts this file, asks it which models
// it serves, and builds a resource in it for every component of the configuration that uses one.
import { serveModule, SENSOR_API } from "./svc-module-sdk.mjs";

const greeter = {
  api: SENSOR_API,
  model: "${model}",
  // Refuse a bad entry early: the resource shows this message and is not built.
  validate(config) {
    const greeting = config.attributes.greeting ?? "hello";
    if (typeof greeting !== "string") throw new Error("attributes.greeting: must be a string");
    return { dependencies: [] };
  },
  async build({ name, config, logger }) {
    const greeting = config.attributes.greeting ?? "hello";
    let readings = 0;
    logger.info("ready", { greeting });
    return {
      name,
      async getReadings() {
        readings += 1;
        return { greeting, readings };
      },
      async doCommand(command) {
        return { echo: command };
      },
      async close() {
        logger.info("closed", { readings });
      },
    };
  },
};

await serveModule({ models: [greeter] });
`;
}

/** A configuration that runs the module with one sensor of its model. */
export function machineConfig(name, executable, model) {
  return {
    modules: [{ type: "local", name, executable_path: executable }],
    components: [{ name: "greeter", api: "rdk:component:sensor", model, attributes: { greeting: "hello from a module" } }],
  };
}

function main(args) {
  const positional = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--model");
  if (positional.length !== 1) usage(positional.length === 0 ? "say which folder to make" : `one folder, not ${positional.length}`);
  const dir = resolve(positional[0]);
  const name = basename(dir).replace(/[^A-Za-z0-9_-]/g, "-");
  const model = args.includes("--model") ? args[args.indexOf("--model") + 1] : `acme:demo:${name}`;
  if (!model || !MODEL_PATTERN.test(model)) usage(`--model must be namespace:family:name, letters, digits, - and _ (found ${JSON.stringify(model)})`);
  if (existsSync(dir) && readdirSync(dir).length > 0) usage(`${dir} exists and is not empty`);

  if (!existsSync(SDK_BUNDLE)) {
    const built = spawnSync(process.execPath, [join(root, "tools/build/index.mjs"), "--quiet", "--only", "linux"], { stdio: "inherit" });
    if (built.status !== 0) usage("the module SDK could not be built (npm run build says why)");
  }
  mkdirSync(dir, { recursive: true });
  const executable = join(dir, `${name}.mjs`);
  writeFileSync(executable, moduleSource(model));
  chmodSync(executable, 0o755);
  copyFileSync(SDK_BUNDLE, join(dir, "svc-module-sdk.mjs"));
  writeFileSync(join(dir, "machine.json"), `${JSON.stringify(machineConfig(name, executable, model), null, 2)}\n`);
  console.log(`made ${dir}:
  ${name}.mjs          the module (model ${model}); edit it
  svc-module-sdk.mjs   the module SDK
  machine.json         a configuration that runs it
run it: node dist/linux/svc-server.mjs -config ${join(dir, "machine.json")}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
