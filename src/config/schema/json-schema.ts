// A shape → a JSON Schema (draft-07) document, for editors (Taplo / Even Better TOML, VS Code, JetBrains).
// Pure: the schema is the shapes' own schema() tree with a header; nothing here knows a key.
import type { JsonSchema, ShapeMeta } from '../decode.js';

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

export interface SchemaHeader {
  readonly id: string;
  readonly title: string;
}

export function toJsonSchema(shape: ShapeMeta, header: SchemaHeader): JsonSchema {
  return { $schema: DRAFT_07, $id: header.id, title: header.title, ...shape.schema() };
}

/** The committed text: two-space JSON and a final newline. */
export function schemaText(schema: JsonSchema): string {
  return JSON.stringify(schema, null, 2) + '\n';
}
