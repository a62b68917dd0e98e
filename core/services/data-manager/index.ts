// Public face of core/services/data-manager: the data manager service API, served by
// svc-server only, platform-neutral but kept out of the MCU's core: its interface, its handlers
// and the data manager, which has nothing to sync since svc captures no data yet.
export type { DataManager } from "./data-manager.js";
export { createDataManagerService } from "./data-manager-service.js";
export { builtinDataManagerModel, checkDataManagerAttributes, fakeDataManagerModel } from "./builtin-data-manager.js";
