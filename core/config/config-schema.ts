// The machine configuration's schema (core/config/schema.json) as the data every check reads.
import schema from "./schema.json";
import type { SchemaNode } from "./schema-check.js";

export const configSchema: SchemaNode = schema as SchemaNode;
