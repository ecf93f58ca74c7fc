// Wire: plain JSON as written to a JSON envelope or an HTTP answer (snake_case keys, no bigint, no undefined).
// One type for every encoder (cli/render/*, dispatch/explain-view.ts, journal/wire.ts).

/** Plain JSON as written to the wire (no bigint: encoders turn exact integers into numbers or text first). */
export type Wire = null | boolean | number | string | readonly Wire[] | { readonly [key: string]: Wire };

/** `schema` of every JSON envelope, `{schema, mock, result | error}` (the CLI's `--format json`, the HTTP API's answers) */
export const SCHEMA_VERSION = 1;
