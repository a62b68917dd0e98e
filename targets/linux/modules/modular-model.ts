// A model a module provides, as the graph sees it: validation from what the module's
// ValidateConfig answered, build = AddResource and a remote resource over the module's socket,
// reconfigure = ReconfigureResource (in place) when the module implements it, close =
// RemoveResource while the same run of the module is up (a crashed module has nothing to remove).
import { errorMessage, formatResourceName, type ModelRegistration, type Resource } from "../../../core/index.js";
import { createRemoteResource, markServedBy } from "../remote/index.js";
import type { ModuleClient } from "./module-client.js";
import type { ModuleValidations } from "./module-validations.js";

export interface ModularModelOptions {
  api: string;
  model: string;
  moduleName: string;
  /** The module's client while it is up and ready; undefined otherwise. */
  client(): ModuleClient | undefined;
  validations: ModuleValidations;
  /** Deadline of one AddResource, ReconfigureResource or RemoveResource. */
  callTimeoutMs: number;
}

export function modularModel(options: ModularModelOptions): ModelRegistration {
  const { moduleName, callTimeoutMs } = options;
  // Which run of the module each instance was added to: a restarted module no longer has it.
  const builtBy = new WeakMap<Resource, ModuleClient>();
  const running = () => {
    const client = options.client();
    if (!client) throw new Error(`module ${JSON.stringify(moduleName)} is not running`);
    return client;
  };
  return {
    api: options.api,
    model: options.model,
    validate(config, path) {
      const answer = options.validations.get(config);
      if (answer === undefined) return {};
      if ("error" in answer) {
        return { issues: [{ path: `${path}.attributes`, message: `module ${JSON.stringify(moduleName)} refused it: ${answer.error}`, severity: "error" }] };
      }
      return { requiredDependencies: answer.requiredDependencies, optionalDependencies: answer.optionalDependencies };
    },
    async build(ctx) {
      const client = running();
      await client.add(ctx.config, ctx.dependencies.names(), callTimeoutMs);
      const remote = createRemoteResource(ctx.name, client.transport);
      const fullName = formatResourceName(ctx.name);
      const resource: Resource = {
        ...remote,
        async close() {
          await remote.close();
          // The same run of the module still holds it; after a crash there is nothing to remove.
          if (options.client() !== client) return;
          try {
            await client.remove(fullName, callTimeoutMs);
          } catch (thrown) {
            if (options.client() === client) throw new Error(`RemoveResource in module ${JSON.stringify(moduleName)} failed: ${errorMessage(thrown)}`);
          }
        },
      };
      builtBy.set(resource, client);
      markServedBy(resource, client.transport);
      return resource;
    },
    async reconfigure(resource, ctx) {
      const client = running();
      if (builtBy.get(resource) !== client) throw new Error("the module has restarted since this resource was added");
      const done = await client.reconfigure(ctx.config, ctx.dependencies.names(), callTimeoutMs);
      if (!done) throw new Error(`module ${JSON.stringify(moduleName)} does not reconfigure resources in place`);
    },
  };
}
