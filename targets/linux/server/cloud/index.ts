// svc-server managed by svc-cloud: a credentials file's cloud section, the cache the machine
// boots from, and the cloud side that follows the configuration, uploads the logs and honours
// restart requests.
export { bootConfig, firstBootConfig, FIRST_BOOT_WAIT_MS, type CloudBoot } from "./boot-config.js";
export { cloudCredentialsOf, type CloudCredentials } from "../../cloud-link/cloud-credentials.js";
export { cacheOrigin, cacheRevision, cloudOrigin } from "./cloud-config-source.js";
export { createConfigCache, type CachedConfig, type ConfigCache } from "./config-cache.js";
export { bootCertificate, createCertificateCache, type CertificateCache, type PartCertificate } from "./certificate-cache.js";
export { startCloudSide, type CloudSide, type CloudSideOptions } from "./cloud-side.js";
export { uploadFtdcFiles, UPLOADED_RECORD, type FtdcFolder, type FtdcUpload, type FtdcUploadOptions } from "./ftdc-upload.js";
export { RESTART_EXIT_CODE } from "../../cloud-link/index.js";
export { cloudDir, prepareCloudStart, CLOUD_LOG_QUEUE_ENTRIES, type CloudStart } from "./cloud-start.js";
