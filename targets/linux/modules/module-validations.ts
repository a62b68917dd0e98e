// What a module's ValidateConfig said about each configuration entry of its models, kept so the
// graph can ask synchronously while planning. Entries are asked ahead: when a configuration
// arrives and when the module comes up, before its models are registered.
import type { ResourceConfig } from "../../../core/index.js";
import type { ModuleValidation } from "./module-client.js";

export type ValidationAnswer = ModuleValidation | { error: string };

export interface ModuleValidations {
  get(config: ResourceConfig): ValidationAnswer | undefined;
  set(config: ResourceConfig, answer: ValidationAnswer): void;
  /** Forgets everything (the module's executable or settings changed). */
  clear(): void;
}

/** The parts of an entry a module's validator sees. */
export function validationKey(config: ResourceConfig): string {
  return JSON.stringify([config.api, config.name, config.model, config.attributes, config.depends_on]);
}

export function createModuleValidations(): ModuleValidations {
  const answers = new Map<string, ValidationAnswer>();
  return {
    get: (config) => answers.get(validationKey(config)),
    set: (config, answer) => void answers.set(validationKey(config), answer),
    clear: () => answers.clear(),
  };
}
