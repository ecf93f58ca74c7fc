// The parts of Rhai this interpreter leaves out, and the compile error each gives: a script that
// uses one fails to load with the feature named at its line and column, rather than running with
// a different meaning. (Syntax that does not exist here at all, such as custom syntax, is an
// ordinary syntax error; custom types cannot be made by a script, so none can appear.)

export const UNSUPPORTED_FEATURES = {
  modules: 'Modules are not supported',
  eval: 'Dynamic evaluation is not supported',
  blobs: 'BLOBs are not supported',
  decimals: 'Decimal numbers are not supported',
} as const;

export type UnsupportedFeature = keyof typeof UNSUPPORTED_FEATURES;

export function unsupported(feature: UnsupportedFeature, name: string): string {
  return `${UNSUPPORTED_FEATURES[feature]}: '${name}'`;
}

/**
 * Functions of Rhai's standard packages that belong to a left-out feature. Calling one (as a
 * function, not a method) is refused at compile time unless the script defines a function of that
 * name itself.
 */
export const UNSUPPORTED_FUNCTIONS: ReadonlyMap<string, UnsupportedFeature> = new Map([
  ['eval', 'eval'],
  ['blob', 'blobs'],
  ['parse_le_int', 'blobs'],
  ['parse_be_int', 'blobs'],
  ['parse_le_float', 'blobs'],
  ['parse_be_float', 'blobs'],
  ['write_le', 'blobs'],
  ['write_be', 'blobs'],
  ['write_utf8', 'blobs'],
  ['write_ascii', 'blobs'],
  ['as_string', 'blobs'],
  ['parse_decimal', 'decimals'],
  ['to_decimal', 'decimals'],
  ['is_decimal', 'decimals'],
] as const);
