// A credentials file's `cloud` section as svc-server uses it: the part, its API key, where
// svc-cloud is, and how often to ask it. What cannot be used is said in a sentence, and svc-server
// does not start: a machine meant to be managed never runs unmanaged by mistake.
import type { CloudConfig } from "../../../core/index.js";
import { cloudAddressOf } from "./cloud-address.js";

export interface CloudCredentials {
  partId: string;
  apiKey: { id: string; key: string };
  /** svc-cloud's origin, such as https://cloud.example.com. */
  url: string;
  refreshMs: number;
}

export function cloudCredentialsOf(cloud: CloudConfig, allowInsecureCreds: boolean): CloudCredentials | { problem: string } {
  if (cloud.api_key === undefined) {
    return {
      problem:
        "cloud.secret is a robot secret, which svc-cloud does not take: give the part's API key as cloud.api_key {\"id\", \"key\"} (svc-cloud machine create and the web app's \"New credentials file\" write it)",
    };
  }
  const address = cloudAddressOf(cloud, allowInsecureCreds);
  if ("problem" in address) return address;
  return { partId: cloud.id, apiKey: cloud.api_key, url: address.url, refreshMs: cloud.refresh_interval_ms };
}
