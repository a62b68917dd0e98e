// The package sources configured on the device (/etc/apt/sources.list, sources.list.d/*.list in
// one-line form and *.sources in deb822 form), reduced to what unattended-upgrades can match on:
// the repository's host and its suite. Custom repositories count like the distribution's own.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface AptSource {
  /** Host of the repository URI ("" for file: and cdrom: repositories). */
  site: string;
  /** Suite as written: a codename ("bookworm-security"), an archive ("stable") or a flat path ("./"). */
  suite: string;
}

export function readAptSources(root: string): AptSource[] {
  const etc = join(root, "etc/apt");
  const found: AptSource[] = [];
  const text = (path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return "";
    }
  };
  found.push(...parseOneLineSources(text(join(etc, "sources.list"))));
  let names: string[] = [];
  try {
    names = readdirSync(join(etc, "sources.list.d")).sort();
  } catch {
    // No sources.list.d.
  }
  for (const name of names) {
    const path = join(etc, "sources.list.d", name);
    if (name.endsWith(".list")) found.push(...parseOneLineSources(text(path)));
    else if (name.endsWith(".sources")) found.push(...parseDeb822Sources(text(path)));
  }
  const seen = new Set<string>();
  return found.filter((s) => {
    const key = `${s.site}\u0000${s.suite}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `deb [options] uri suite [component...]` lines; deb-src and comments are skipped. */
export function parseOneLineSources(text: string): AptSource[] {
  const sources: AptSource[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line.startsWith("deb ") && !line.startsWith("deb\t")) continue;
    const rest = line.slice(3).trim().replace(/^\[[^\]]*\]\s*/, "");
    const [uri, suite] = rest.split(/\s+/);
    if (uri && suite) sources.push({ site: siteOf(uri), suite });
  }
  return sources;
}

/** deb822 paragraphs: Types (with deb), URIs, Suites; `Enabled: no` ones are skipped. */
export function parseDeb822Sources(text: string): AptSource[] {
  const sources: AptSource[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last = "";
    for (const raw of paragraph.split("\n")) {
      if (raw.startsWith("#")) continue;
      if (/^\s/.test(raw) && last !== "") {
        fields.set(last, `${fields.get(last)} ${raw.trim()}`);
        continue;
      }
      const colon = raw.indexOf(":");
      if (colon <= 0) continue;
      last = raw.slice(0, colon).trim().toLowerCase();
      fields.set(last, raw.slice(colon + 1).trim());
    }
    const words = (key: string) => (fields.get(key) ?? "").split(/\s+/).filter((w) => w !== "");
    if (!words("types").includes("deb")) continue;
    if (/^(no|false|0)$/i.test(fields.get("enabled") ?? "")) continue;
    for (const uri of words("uris")) for (const suite of words("suites")) sources.push({ site: siteOf(uri), suite });
  }
  return sources;
}

function siteOf(uri: string): string {
  const match = /^[a-z0-9+.-]+:\/\/(?:[^@/]*@)?([^/:]*)/i.exec(uri);
  return match ? match[1]!.toLowerCase() : "";
}
