// A shape's JSON Schema → a TypeScript type, for the library's typed `use()` (src/library/override-rule.ts): the
// type a caller's compiler checks is generated from the same shapes the loader decodes with, so a misspelt key
// fails to compile before it fails at run time. Pure: it reads the schema tree only.
//
// What TypeScript can say is written: objects (closed: no other keys), maps, arrays, unions, enums and literals,
// each key's doc as a comment. What it cannot is left to the decoder at run time: bounds, patterns, and the
// cross-key rules (`anyOf` of `required`, `not`, `if`/`then`, `dependencies`).
import type { JsonSchema } from '../decode.js';

type Node = Readonly<Record<string, unknown>>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `export interface <name> { … }` with the schema's doc as its comment; the schema must be an object's. */
export function interfaceOf(name: string, schema: JsonSchema): string {
  const doc = docOf(schema, '');
  return `${doc}export interface ${name} ${objectType(schema, '')}\n`;
}

/** The type of one schema node, laid out at `indent`. */
export function typeOf(schema: unknown, indent: string): string {
  if (!isNode(schema)) return 'unknown';
  if ('const' in schema) return literal(schema['const']);
  if (Array.isArray(schema['enum'])) return schema['enum'].map(literal).join(' | ');
  const branches = Array.isArray(schema['anyOf']) ? schema['anyOf'].filter(isNode).filter(isTyped) : [];
  if (branches.length > 0) return branches.map((b) => parenthesized(typeOf(b, indent))).join(' | ');
  switch (schema['type']) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `readonly ${parenthesized(typeOf(schema['items'], indent))}[]`;
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

/** A branch that names a type (an `anyOf` of `required` lists only constrains keys: TypeScript leaves it out). */
function isTyped(n: Node): boolean {
  return 'type' in n || 'enum' in n || 'const' in n || 'anyOf' in n;
}

/** A literal type, in single quotes as the project writes strings. */
function literal(v: unknown): string {
  return typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);
}

function parenthesized(t: string): string {
  return t.includes(' | ') && !t.startsWith('{') ? `(${t})` : t;
}

function objectType(schema: Node, indent: string): string {
  const props = isNode(schema['properties']) ? Object.entries(schema['properties']) : [];
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const extra = schema['additionalProperties'];
  const inner = indent + '  ';
  const lines: string[] = [];
  for (const [key, value] of props) {
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    lines.push(
      `${docOf(value, inner)}${inner}readonly ${name}${required.has(key) ? '' : '?'}: ${typeOf(value, inner)};`,
    );
  }
  if (isNode(extra)) {
    const value = typeOf(extra, inner);
    // TypeScript wants every named key's type within the index signature's
    if (props.length > 0)
      return `${objectType({ ...schema, additionalProperties: false }, indent)} & Readonly<Record<string, ${value}>>`;
    lines.push(`${inner}readonly [key: string]: ${value};`);
  } else if (extra !== false && props.length === 0) {
    return 'Readonly<Record<string, unknown>>';
  }
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
}

function docOf(schema: unknown, indent: string): string {
  if (!isNode(schema) || typeof schema['description'] !== 'string') return '';
  const lines = schema['description'].replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ' ' + l}\n`).join('')}${indent} */\n`;
}
