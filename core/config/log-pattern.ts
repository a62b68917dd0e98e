// Log rule patterns, as a configuration writes them: a pattern matches a logger name when the
// whole name matches, `*` stands for any run of characters (possibly empty) and every other
// character is literal, so `rdk.resource_manager.rdk:component:motor/*` and `rdk.*` work as
// existing configurations write them. Patterns are compiled once, when a configuration is
// applied; the common shapes (no star, one leading or trailing star) avoid a regular expression
// altogether.

const allowed = /^[A-Za-z0-9_\-.:/*@]+$/;

/** Why a pattern cannot be used, or undefined when it is fine. */
export function logPatternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return "must not be empty";
  if (!allowed.test(pattern)) {
    const bad = pattern.split("").find((c) => !allowed.test(c));
    return `may contain only letters, digits, "_", "-", ".", ":", "/", "@" and "*" (found ${JSON.stringify(bad)})`;
  }
  return undefined;
}

/** A matcher for a valid pattern; an invalid one matches nothing. */
export function compileLogPattern(pattern: string): (loggerName: string) => boolean {
  if (logPatternProblem(pattern) !== undefined) return () => false;
  const parts = pattern.split("*");
  if (parts.length === 1) return (name) => name === pattern;
  if (parts.every((part) => part === "")) return () => true;
  if (parts.length === 2) {
    const [head, tail] = parts as [string, string];
    if (tail === "") return (name) => name.startsWith(head);
    if (head === "") return (name) => name.endsWith(tail);
    return (name) => name.length >= head.length + tail.length && name.startsWith(head) && name.endsWith(tail);
  }
  const source = parts.map((part) => part.replace(/[.\-/:@]/g, (c) => `\\${c}`)).join(".*");
  const regex = new RegExp(`^${source}$`);
  return (name) => regex.test(name);
}
