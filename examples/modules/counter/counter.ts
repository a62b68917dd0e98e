// An example module: a sensor that counts. Each reading adds `step` (default 1) to the count;
// DoCommand {"reset": true} sets it back to zero. With `source` naming another sensor (built in
// or modular), its readings are included under `source`, which makes that sensor a dependency.
import { serveModule, SENSOR_API, type ModuleModel, type Sensor } from "svc/module-sdk";

function stepOf(attributes: Record<string, unknown>): number {
  const step = attributes.step ?? 1;
  if (typeof step !== "number" || !Number.isFinite(step)) throw new Error(`attributes.step: must be a number (found ${JSON.stringify(step)})`);
  return step;
}

function sourceOf(attributes: Record<string, unknown>): string | undefined {
  const source = attributes.source;
  if (source === undefined) return undefined;
  if (typeof source !== "string" || source === "") throw new Error("attributes.source: must be the name of a sensor");
  return source;
}

const counter: ModuleModel<Sensor> = {
  api: SENSOR_API,
  model: "acme:demo:counter",
  validate(config) {
    stepOf(config.attributes);
    const source = sourceOf(config.attributes);
    return { dependencies: source ? [source] : [] };
  },
  async build({ name, config, dependencies, logger }) {
    let step = stepOf(config.attributes);
    let source = sourceOf(config.attributes);
    let count = 0;
    logger.info("counter ready", { step });
    return {
      name,
      async getReadings() {
        count += step;
        logger.debug("counted", { count });
        const readings: Record<string, unknown> = { count };
        if (source) {
          const sensor = dependencies.get<Sensor>(source);
          readings.source = sensor ? await sensor.getReadings() : null;
        }
        return readings;
      },
      async doCommand(command) {
        if (command.reset === true) count = 0;
        return { count };
      },
      async close() {
        logger.info("counter closed", { count });
      },
      // Kept on the instance so reconfigure can change it without losing the count.
      setStep(next: number, nextSource: string | undefined) {
        step = next;
        source = nextSource;
      },
    } as Sensor & { setStep(step: number, source: string | undefined): void };
  },
  async reconfigure(resource, { config }) {
    (resource as Sensor & { setStep(step: number, source: string | undefined): void }).setStep(stepOf(config.attributes), sourceOf(config.attributes));
  },
};

await serveModule({ models: [counter] });
