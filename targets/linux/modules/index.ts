// Modular resources: module processes, the module protocol and the models they provide.
export { createModuleManager, MODULE_STATUS_API } from "./module-manager.js";
export type { ModuleManager, ModuleManagerOptions } from "./module-manager.js";
export type { ModuleStatus } from "./module-supervisor.js";
export { createModuleSockets } from "./module-sockets.js";
export type { ModuleSockets } from "./module-sockets.js";
export { hostPlatform, resolveModulePackage, ModulePackageError } from "./module-package.js";
export type { ModulePackageOptions, ModulePackage } from "./module-package.js";
export { PARENT_PIPE_FD } from "./module-process.js";
export { createParentChannel, parseParentChannelLine, FOLLOWS_LOG_LEVEL } from "./parent-channel.js";
export type { ParentChannel, ParentChannelMessage } from "./parent-channel.js";
export { createRestartBackoff, RESTART_INITIAL_MS, RESTART_MAX_MS, HEALTHY_RESET_MS } from "./restart-backoff.js";
export type { RestartBackoff } from "./restart-backoff.js";
