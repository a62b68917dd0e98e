// Quoting one word of a systemd Exec line, shared by the units of svc-server and svc-agent.

/** One word of an Exec line: quoted when needed, with `%` and `$` escaped from systemd's expansion. */
export function systemdQuote(word: string): string {
  const escaped = word.replace(/%/g, "%%").replace(/\$/g, "$$$$");
  if (/^[A-Za-z0-9_@%$+=:,./-]+$/.test(escaped)) return escaped;
  return `"${escaped.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
