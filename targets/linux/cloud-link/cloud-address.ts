// Where a machine's cloud is, from its credentials: `cloud.app_address` as a URL svc-server can
// dial. Credentials travel over TLS; plain http:// only to this machine itself (a loopback
// address) or with -allow-insecure-creds, so a typo never sends a key across a network in clear.
import { isIP } from "node:net";
import type { CloudConfig } from "../../../core/index.js";

export type CloudAddress = { url: string } | { problem: string };

export function cloudAddressOf(cloud: CloudConfig, allowInsecureCreds: boolean): CloudAddress {
  const written = cloud.app_address.trim();
  if (written === "") return { problem: "cloud.app_address is empty: give the address of your svc-cloud, such as https://cloud.example.com" };
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return { problem: `cloud.app_address ${JSON.stringify(written)} is not a URL such as https://cloud.example.com` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { problem: `cloud.app_address ${JSON.stringify(written)} must start with https:// (or http://)` };
  }
  if (url.username !== "" || url.password !== "") return { problem: "cloud.app_address must not carry a user name or password" };
  if (url.protocol === "http:" && !allowInsecureCreds && !isLoopback(url.hostname)) {
    return {
      problem: `cloud.app_address ${JSON.stringify(written)} is plain http: the part's key would cross the network unencrypted; use https:// or start svc-server with -allow-insecure-creds`,
    };
  }
  return { url: url.origin };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}
