// Public face of the server's plain HTTP routes: restart status and the shared static folder.
export { restartStatusRoute, type RestartStatus } from "./restart-status.js";
export { staticFilesRoute, StaticFilesError, type StaticFilesOptions } from "./static-files.js";
export { contentTypeOf } from "./content-types.js";
