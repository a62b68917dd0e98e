// The version svc-server and svc-agent report: the one given to the build (`--version X`, which
// esbuild defines as __SVC_VERSION__), or else package.json's.
import packageJson from "../../package.json";

declare const __SVC_VERSION__: string | undefined;

export const SVC_VERSION: string = typeof __SVC_VERSION__ === "string" && __SVC_VERSION__ !== "" ? __SVC_VERSION__ : packageJson.version;
