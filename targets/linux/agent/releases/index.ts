// Public face of the agent's releases: finding, downloading, verifying, installing and switching
// versions of svc-server and of the agent itself.
export { ReleaseError } from "./release-error.js";
export { currentPlatform } from "./platform.js";
export { fetchReleaseIndex, MAX_INDEX_BYTES, type FetchIndexOptions } from "./fetch-index.js";
export { downloadArtifact, MAX_ARTIFACT_BYTES, type DownloadOptions, type DownloadedArtifact } from "./download.js";
export { createDownloadProgress, type DownloadProgress, type ProgressMode } from "./download-progress.js";
export { readReleaseManifest, RELEASE_MANIFEST, type ReleaseManifest } from "./release-manifest.js";
export { createVersionStore, type VersionStore, type VersionStoreOptions, type BadMark } from "./version-store.js";
export { createDownloadFailures, type DownloadFailures, type DownloadFailuresOptions, type HeldDownload } from "./download-failures.js";
export { prepareUpdate, type PrepareUpdateOptions, type PreparedUpdate } from "./prepare-update.js";
