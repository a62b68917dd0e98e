// What a `version_control` value asks for: a release channel, one exact version, or the URL of
// an artifact. Classified once, so every later step works on a tagged value, never on a string.
// An artifact is run as root, so where it comes from must vouch for it: https does, on its own;
// http and file URLs do not (anyone on the path, or with write access to the file, could swap
// it), so they are accepted only pinned by the artifact's sha256: `http://host/a.tar.gz#sha256=<hex>`.
import { parseSemver } from "./semver.js";

export type Channel = "stable" | "dev";
export const CHANNELS: readonly Channel[] = ["stable", "dev"];

export type ClassifiedVersionSpec =
  | { kind: "channel"; channel: Channel }
  | { kind: "version"; version: string }
  /** `url` is what is fetched (without the pin); `source` names the artifact (with it). */
  | { kind: "url"; url: string; sha256?: string; source: string }
  | { kind: "invalid"; reason: string };

const PIN = /^sha256=([0-9a-fA-F]{64})$/;

const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

export function classifyVersionSpec(spec: string): ClassifiedVersionSpec {
  if (typeof spec !== "string") return { kind: "invalid", reason: "must be a string" };
  const text = spec.trim();
  if (text === "") return { kind: "invalid", reason: 'must not be empty: "stable", "dev", a semantic version or a URL' };
  if (text === "stable" || text === "dev") return { kind: "channel", channel: text };
  const scheme = URL_SCHEME.exec(text);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    if (name !== "http" && name !== "https" && name !== "file") {
      return { kind: "invalid", reason: `${JSON.stringify(text)}: only http, https and file URLs are accepted` };
    }
    if (/\s/.test(text)) return { kind: "invalid", reason: `${JSON.stringify(text)}: a URL must not contain spaces` };
    const rest = text.slice(name.length + 1);
    if (name === "file" ? !rest.startsWith("/") : !/^\/\/[^/?#]+/.test(rest)) {
      return { kind: "invalid", reason: `${JSON.stringify(text)}: not a complete ${name} URL` };
    }
    return classifyUrl(text, name);
  }
  // "v1.2.3" is a common way of writing a tag; the version itself is what is looked up.
  const version = /^v[0-9]/.test(text) ? text.slice(1) : text;
  if (parseSemver(version)) return { kind: "version", version };
  return {
    kind: "invalid",
    reason: `${JSON.stringify(text)} is not "stable", "dev", a semantic version (such as 1.2.3) or an http, https or file URL`,
  };
}

function classifyUrl(text: string, scheme: string): ClassifiedVersionSpec {
  const hash = text.indexOf("#");
  const url = hash < 0 ? text : text.slice(0, hash);
  if (hash >= 0) {
    const pin = PIN.exec(text.slice(hash + 1));
    if (!pin) return { kind: "invalid", reason: `${JSON.stringify(text)}: the only fragment a URL takes here is #sha256=<64 hex digits>` };
    const sha256 = pin[1]!.toLowerCase();
    return { kind: "url", url, sha256, source: `${url}#sha256=${sha256}` };
  }
  if (scheme !== "https") {
    return {
      kind: "invalid",
      reason:
        `${JSON.stringify(text)}: ${scheme === "http" ? "an" : "a"} ${scheme} URL is accepted only pinned by the artifact's sha256, ` +
        `as "${url}#sha256=<64 hex digits>" (or served over https)`,
    };
  }
  return { kind: "url", url, source: url };
}
