// Resolves a URL reference against a base URL (RFC 3986, section 5.2), without the `URL` global,
// which XS does not have: the release index names its artifacts relative to where it is served.

interface Parts {
  scheme: string;
  authority: string | undefined;
  path: string;
  query: string | undefined;
}

const PARTS = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#.*)?$/;

function split(url: string): Parts & { hasScheme: boolean } {
  const m = PARTS.exec(url)!;
  return { scheme: m[1] ?? "", hasScheme: m[1] !== undefined, authority: m[2], path: m[3] ?? "", query: m[4] };
}

function removeDotSegments(path: string): string {
  const output: string[] = [];
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === ".") {
      if (last) output.push("");
    } else if (segment === "..") {
      if (output.length > 1) output.pop();
      if (last) output.push("");
    } else {
      output.push(segment);
    }
  }
  return output.join("/");
}

function join(p: Parts): string {
  let out = p.scheme + ":";
  if (p.authority !== undefined) out += "//" + p.authority;
  out += p.path;
  if (p.query !== undefined) out += "?" + p.query;
  return out;
}

/** `reference` made absolute against `base` (fragments are dropped: they mean nothing to a download). */
export function resolveUrlReference(base: string, reference: string): string {
  const r = split(reference);
  const b = split(base);
  if (r.hasScheme) return join({ ...r, path: removeDotSegments(r.path) });
  if (r.authority !== undefined) return join({ scheme: b.scheme, authority: r.authority, path: removeDotSegments(r.path), query: r.query });
  if (r.path === "") return join({ scheme: b.scheme, authority: b.authority, path: b.path, query: r.query ?? b.query });
  if (r.path.startsWith("/")) return join({ scheme: b.scheme, authority: b.authority, path: removeDotSegments(r.path), query: r.query });
  const merged = b.authority !== undefined && b.path === "" ? "/" + r.path : b.path.slice(0, b.path.lastIndexOf("/") + 1) + r.path;
  return join({ scheme: b.scheme, authority: b.authority, path: removeDotSegments(merged), query: r.query });
}
