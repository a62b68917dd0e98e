// Public face of core/resource: resource names, the Resource contract and the model registry.
export {
  formatApi,
  formatResourceName,
  fullResourceName,
  isFullNameReference,
  isNamePart,
  isRemoteName,
  lastNamePart,
  parseApi,
  parseModel,
  parseResourceName,
  simpleNameProblem,
} from "./resource-name.js";
export type { ModelTriplet, ParsedName, ResourceApi, ResourceName } from "./resource-name.js";
export { hasReadings, silentLogger } from "./resource.js";
export type { CommandPayload, LoggerLike, ReadingsSource, Resource } from "./resource.js";
export { createModelRegistry } from "./model-registry.js";
export type {
  BuildContext,
  ModelRegistration,
  ModelRegistry,
  ModelValidation,
  RegisteredModel,
  RegistryChange,
  ResourceDependencies,
} from "./model-registry.js";
export { validateResourceConfig } from "./validate-resource.js";
export type { ResourceValidation } from "./validate-resource.js";
