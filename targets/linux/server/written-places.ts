// Where an entry stands in the configuration file as written. Parsed lists leave out broken
// entries, so a parsed index is not a place a person can find; the name, looked up in the
// written JSON (a reading's `written()`), is.

/**
 * A finder of the index of the entry named `name` in `section` of the written file, else
 * `fallback`; `key` is the field that names entries there (`id` for processes).
 */
export function placeFinder(written: unknown): (section: string, name: string, fallback: number, key?: string) => number {
  const sections = typeof written === "object" && written !== null ? (written as Record<string, unknown>) : {};
  return (section, name, fallback, key = "name") => {
    const list = sections[section];
    if (!Array.isArray(list)) return fallback;
    const index = list.findIndex((item) => typeof item === "object" && item !== null && (item as Record<string, unknown>)[key] === name);
    return index < 0 ? fallback : index;
  };
}

/**
 * Where each parsed entry of `section` is written: `components[3]`. Parsing keeps the written
 * order and only leaves broken entries out, so the parsed entries are matched to the written
 * ones in order, by name.
 */
export function writtenPaths(written: unknown, section: string, entries: readonly { name: string }[]): string[] {
  const sections = typeof written === "object" && written !== null ? (written as Record<string, unknown>) : {};
  const list = Array.isArray(sections[section]) ? (sections[section] as unknown[]) : [];
  const paths: string[] = [];
  let w = 0;
  for (const [i, entry] of entries.entries()) {
    const from = w;
    while (w < list.length && (list[w] as { name?: unknown } | null)?.name !== entry.name) w++;
    if (w === list.length) {
      // Not found in order (the written file is not what was parsed): fall back to the parsed index.
      w = from;
      paths.push(`${section}[${i}]`);
      continue;
    }
    paths.push(`${section}[${w}]`);
    w++;
  }
  return paths;
}
