// The rules a network choice and machine credentials must meet before the portal hands them on.
// The page's script applies the same rules in the browser (portal-script.ts); these are the ones
// that count, because a mobile app or a page without JavaScript reaches the server unchecked.
import type { AccessPoint } from "../network-backend.js";

export interface NetworkChoice {
  ssid: string;
  /** "" for an open network. */
  psk: string;
}

export interface MachineCredentials {
  partId: string;
  apiKeyId: string;
  apiKey: string;
  /** svc-cloud's address, as its credentials file names it; "" or absent keeps what the file has. */
  appAddress?: string;
}

/** The first problem found, with the field it belongs to (the names used by the form and the API). */
export interface InputProblem {
  field: "ssid" | "psk" | "part_id" | "api_key_id" | "api_key" | "app_address" | "body";
  error: string;
}

const MAX_SSID_BYTES = 32;
// C0 controls, DEL and C1 controls: a NUL cuts the name short in C code downstream, a line break
// splits a line of a profile or a log; no real network is named with them.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;
const CREDENTIAL_TEXT = /^[\x21-\x7e]+$/;
const MAX_CREDENTIAL_LENGTH = 256;
const MAX_ADDRESS_LENGTH = 2048;

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * Checks an SSID and its password against what the portal last saw. An empty password is only
 * accepted for a network seen as open: a hidden or unseen network is assumed secured.
 */
export function networkChoiceProblem(choice: NetworkChoice, visible: readonly AccessPoint[]): InputProblem | undefined {
  const { ssid, psk } = choice;
  if (ssid.length === 0) return { field: "ssid", error: "Enter the network name (SSID)." };
  if (utf8Length(ssid) > MAX_SSID_BYTES) {
    return { field: "ssid", error: `The network name is ${utf8Length(ssid)} bytes long; at most ${MAX_SSID_BYTES} are allowed.` };
  }
  if (CONTROL_CHARACTER.test(ssid)) {
    return { field: "ssid", error: "The network name may not contain control characters (such as a line break or NUL)." };
  }
  const seen = visible.find((ap) => ap.ssid === ssid);
  if (seen?.security === "wpa-eap") {
    return { field: "ssid", error: `"${ssid}" uses enterprise (802.1X) sign-in, which this page cannot set up.` };
  }
  if (psk.length === 0) {
    if (seen?.security === "open") return undefined;
    return { field: "psk", error: "Enter the Wi-Fi password (it may be left empty only for an open network)." };
  }
  return pskProblem(psk);
}

function pskProblem(psk: string): InputProblem | undefined {
  if (HEX_64.test(psk)) return undefined;
  if (!PRINTABLE_ASCII.test(psk)) {
    return { field: "psk", error: "The password may contain only printable ASCII characters (or be 64 hexadecimal digits)." };
  }
  if (psk.length < 8) return { field: "psk", error: "The password is too short: a WPA password has at least 8 characters." };
  if (psk.length > 63) return { field: "psk", error: "The password is too long: a WPA password has at most 63 characters (or 64 hexadecimal digits)." };
  return undefined;
}

export function credentialsProblem(credentials: MachineCredentials): InputProblem | undefined {
  const fields: Array<[InputProblem["field"], string, string]> = [
    ["part_id", credentials.partId, "part ID"],
    ["api_key_id", credentials.apiKeyId, "API key ID"],
    ["api_key", credentials.apiKey, "API key"],
  ];
  for (const [field, value, name] of fields) {
    if (value.length === 0) return { field, error: `Enter the ${name}.` };
    if (value.length > MAX_CREDENTIAL_LENGTH) return { field, error: `The ${name} is longer than ${MAX_CREDENTIAL_LENGTH} characters.` };
    if (!CREDENTIAL_TEXT.test(value)) return { field, error: `The ${name} may contain only printable ASCII characters without spaces.` };
  }
  return appAddressProblem(credentials.appAddress ?? "");
}

/** svc-cloud's address, when one is given: an http or https URL of a host alone (no user, path or query). */
function appAddressProblem(address: string): InputProblem | undefined {
  if (address === "") return undefined;
  const field = "app_address";
  if (address.length > MAX_ADDRESS_LENGTH || !CREDENTIAL_TEXT.test(address)) return { field, error: `The svc-cloud address must be a URL of at most ${MAX_ADDRESS_LENGTH} printable characters.` };
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { field, error: "The svc-cloud address is not a URL (such as https://cloud.example.com)." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { field, error: "The svc-cloud address must start with https:// (or http://)." };
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "" || (url.pathname !== "/" && url.pathname !== "")) {
    return { field, error: "The svc-cloud address names svc-cloud alone: scheme, host and port, no user, path or query." };
  }
  return undefined;
}
