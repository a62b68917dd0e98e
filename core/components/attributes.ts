// Reading a model's attributes with every problem collected under its configuration path
// (`components[2].attributes.pins.pwm: required`), so a validator and the build that follows
// read the same values and report the same problems.
import type { ConfigIssue } from "../config/index.js";
import { Code, SvcError } from "../errors/index.js";

export interface NumberRule {
  default?: number;
  required?: boolean;
  integer?: boolean;
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound. */
  max?: number;
  /** Strictly greater than zero. */
  positive?: boolean;
}

export interface AttributeReader {
  /** Where these attributes sit, e.g. `components[2].attributes`. */
  readonly path: string;
  /** Problems found so far, shared with every nested reader. */
  readonly issues: ConfigIssue[];
  has(key: string): boolean;
  number(key: string, rule?: NumberRule): number | undefined;
  string(key: string, required?: boolean): string | undefined;
  boolean(key: string, fallback: boolean): boolean;
  /** A pin as a board names it: a non-empty string or a whole number, returned as a string. */
  pin(key: string, required?: boolean): string | undefined;
  /** A nested object, read with the same rules. */
  object(key: string, required?: boolean): AttributeReader | undefined;
  /** A list of objects, one reader per element (`analogs[1]`). */
  list(key: string): AttributeReader[];
  /** A plain JSON object kept as it is. */
  record(key: string): Record<string, unknown> | undefined;
  problem(key: string, message: string): void;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A reader as a class: a model reads its attributes on every validation and build, and the
 * methods shared by every reader cost nothing each time, where a factory's closures would each
 * carry a copy of their code on a microcontroller.
 */
class Reader implements AttributeReader {
  constructor(
    private readonly values: Record<string, unknown>,
    readonly path: string,
    readonly issues: ConfigIssue[],
  ) {}

  private at(key: string): string {
    return `${this.path}.${key}`;
  }

  private bad<T>(key: string, message: string, fallback: T): T {
    this.problem(key, message);
    return fallback;
  }

  problem(key: string, message: string): void {
    this.issues.push({ path: this.at(key), message, severity: "error" });
  }

  has(key: string): boolean {
    return this.values[key] !== undefined && this.values[key] !== null;
  }

  number(key: string, rule: NumberRule = {}): number | undefined {
    if (!this.has(key)) {
      if (rule.required) this.problem(key, "required");
      return rule.default;
    }
    const v = this.values[key];
    if (typeof v !== "number" || !isFinite(v)) return this.bad(key, "must be a number", rule.default);
    if (rule.integer && Math.floor(v) !== v) return this.bad(key, "must be a whole number", rule.default);
    if (rule.positive && !(v > 0)) return this.bad(key, "must be greater than 0", rule.default);
    if (rule.min !== undefined && v < rule.min) return this.bad(key, `must be at least ${rule.min}`, rule.default);
    if (rule.max !== undefined && v > rule.max) return this.bad(key, `must be at most ${rule.max}`, rule.default);
    return v;
  }

  string(key: string, required = false): string | undefined {
    if (!this.has(key)) {
      if (required) this.problem(key, "required");
      return undefined;
    }
    const v = this.values[key];
    if (typeof v !== "string" || v === "") return this.bad(key, "must be a non-empty string", undefined);
    return v;
  }

  boolean(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const v = this.values[key];
    if (typeof v !== "boolean") return this.bad(key, "must be true or false", fallback);
    return v;
  }

  pin(key: string, required = false): string | undefined {
    if (!this.has(key)) {
      if (required) this.problem(key, "required");
      return undefined;
    }
    const v = this.values[key];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number" && v >= 0 && Math.floor(v) === v) return String(v);
    return this.bad(key, "must be a pin name or number", undefined);
  }

  object(key: string, required = false): AttributeReader | undefined {
    if (!this.has(key)) {
      if (required) this.problem(key, "required");
      return undefined;
    }
    const v = this.values[key];
    if (!isPlainObject(v)) return this.bad(key, "must be an object", undefined);
    return new Reader(v, this.at(key), this.issues);
  }

  list(key: string): AttributeReader[] {
    if (!this.has(key)) return [];
    const v = this.values[key];
    if (!Array.isArray(v)) return this.bad(key, "must be a list", []);
    const readers: AttributeReader[] = [];
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (isPlainObject(item)) readers.push(new Reader(item, `${this.at(key)}[${i}]`, this.issues));
      else this.issues.push({ path: `${this.at(key)}[${i}]`, message: "must be an object", severity: "error" });
    }
    return readers;
  }

  record(key: string): Record<string, unknown> | undefined {
    if (!this.has(key)) return undefined;
    const v = this.values[key];
    if (!isPlainObject(v)) return this.bad(key, "must be an object", undefined);
    return v;
  }
}

/** A reader for an entry's attributes; `entryPath` is the entry (`components[2]`). */
export function readAttributes(attributes: Record<string, unknown> | undefined, entryPath: string): AttributeReader {
  return new Reader(attributes ?? {}, `${entryPath}.attributes`, []);
}

/** Throws the problems a build found, all of them, in one message. */
export function failOnIssues(issues: readonly ConfigIssue[]): void {
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return;
  throw new SvcError(Code.InvalidArgument, errors.map((i) => `${i.path}: ${i.message}`).join("; "));
}

/** What a model's attribute parser returns: the values to build with and the problems found. */
export interface Parsed<T> {
  value: T;
  issues: ConfigIssue[];
}
