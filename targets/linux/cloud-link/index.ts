// svc-server's and svc-agent's link to svc-cloud: a credentials file's cloud section as they use
// it, and the signed-in connection both talk to svc-cloud through.
export { cloudAddressOf, type CloudAddress } from "./cloud-address.js";
export { createCloudConnection, CLOUD_CALL_TIMEOUT_MS, CLOUD_READ_MAX_BYTES, type CloudConnection, type CloudConnectionOptions } from "./cloud-connection.js";
export { cloudCredentialsOf, type CloudCredentials } from "./cloud-credentials.js";
export { watchRevisions, WATCH_SILENCE_MS, type RevisionWatch, type RevisionWatchOptions } from "./revision-watch.js";
export { RESTART_EXIT_CODE } from "./restart-exit-code.js";
export { pauseUnless } from "./pause-unless.js";
export { uploadToPartLogs } from "./part-log-uploader.js";
