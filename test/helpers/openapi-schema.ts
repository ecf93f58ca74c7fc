// OpenAPI 3.0 schemas in the JSON Schema draft-07 form ajv reads: a boolean `exclusiveMinimum` / `exclusiveMaximum`
// (3.0) becomes the number it excludes (draft 6+). `nullable` needs nothing: ajv reads it.
export function draft07(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(draft07);
  if (typeof s !== 'object' || s === null) return s;
  const o: Record<string, unknown> = Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, k === 'enum' || k === 'example' ? v : draft07(v)]),
  );
  for (const [ex, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (o[ex] === true) {
      o[ex] = o[bound];
      delete o[bound];
    } else if (o[ex] === false) delete o[ex];
  }
  return o;
}
