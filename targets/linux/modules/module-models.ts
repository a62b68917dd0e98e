// The models a running module provides, in the registry: registered once it is ready (an API svc
// does not serve is said and skipped), taken back with a reason whenever it stops running, so the
// graph holds their resources naming the module.
import { errorMessage, type ResourceConfig } from "../../../core/index.js";
import { isRemoteApi } from "../remote/index.js";
import type { ModuleClient } from "./module-client.js";
import { modularModel } from "./modular-model.js";
import type { SupervisedModule } from "./supervised-module.js";

/** `api model` pairs of the module's handler map. */
export const modelPairs = (m: SupervisedModule) => m.handlers.flatMap((h) => h.models.map((model) => ({ api: h.api, model })));

const pairKeys = (m: SupervisedModule) => new Set(modelPairs(m).map(({ api, model }) => `${api} ${model}`));

export function registerModels(m: SupervisedModule, client: ModuleClient): void {
  const { registry, callTimeoutMs } = m.options;
  for (const handler of m.handlers) {
    if (!isRemoteApi(handler.api)) {
      m.log.warn(`module ${m.quoted} serves API ${handler.api}, which svc does not serve; its models are not used`, { models: handler.models });
      continue;
    }
    for (const model of handler.models) {
      try {
        registry.explainAbsence(handler.api, model, undefined);
        // Calls reach the module only while this run's client is the ready one.
        const current = () => (m.ready === client ? client : undefined);
        m.unregister.push(registry.register(modularModel({ api: handler.api, model, moduleName: m.name, client: current, validations: m.validations, callTimeoutMs })));
      } catch (thrown) {
        m.log.error(`module ${m.quoted} cannot provide model ${model} for API ${handler.api}: ${errorMessage(thrown)}`);
      }
    }
  }
}

/** Takes every model back; the registry tells whoever asks for them why they are gone. */
export function unregisterModels(m: SupervisedModule, reason: string): void {
  for (const { api, model } of modelPairs(m)) m.options.registry.explainAbsence(api, model, reason);
  for (const remove of m.unregister) remove();
  m.unregister = [];
}

/** Asks the module about the entries of its models it has not validated yet. */
export async function validateEntries(m: SupervisedModule, client: ModuleClient, resources: readonly ResourceConfig[]): Promise<void> {
  const pairs = pairKeys(m);
  await Promise.all(
    resources
      .filter((r) => pairs.has(`${r.api} ${r.model}`) && m.validations.get(r) === undefined)
      .map(async (r) => {
        try {
          m.validations.set(r, await client.validate(r, m.options.callTimeoutMs));
        } catch (thrown) {
          m.validations.set(r, { error: errorMessage(thrown) });
        }
      }),
  );
}
