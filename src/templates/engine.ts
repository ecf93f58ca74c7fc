// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the CommonJS build of handlebars ships no types of its own; that file declares them
/// <reference path="./handlebars-cjs.d.ts" />
// The template engine (`handlebars`) and `@faker-js/faker`, each imported on first need: a workspace without
// templates never loads either, and one without `faker` never loads faker (start-up unchanged). Each is a cache of
// an immutable module, not state. Handlebars keeps its prototype-access protections (the defaults): a template
// reads the request's own properties only, never `constructor` or `__proto__`.
import type HandlebarsNamespace from 'handlebars';
import { countedEach, textOf } from './helpers.js';
import { WIREMOCK_HELPERS, wiremockLookup, wireText } from './helpers/wiremock.js';

export type Handlebars = typeof HandlebarsNamespace;

let engine: Handlebars | undefined;
/** the package's root, whose `create()` makes the WireMock dialect's engine apart from ours */
let root: Handlebars | undefined;
const wiremock = new Map<string, Handlebars>();
let engineLoad: Promise<Handlebars> | undefined;
let faker: unknown;
let fakerLoad: Promise<unknown> | undefined;

/** Wrappers the compiler puts around every `{{…}}` (see compile.ts): names no template can write. */
export const JSON_STRING = '__mock_json_string';
export const VALUE = '__mock_value';

export function engineIfLoaded(): Handlebars | undefined {
  return engine;
}

export function loadEngine(): Promise<Handlebars> {
  if (engine !== undefined) return Promise.resolve(engine);
  // handlebars' own CommonJS build: its package entry also registers a `require.extensions['.handlebars']` hook in
  // the whole process, which a library must not do to its host
  return (engineLoad ??= import('handlebars/dist/cjs/handlebars.js').then((m: unknown) => {
    root = ((m as { default?: Handlebars }).default ?? m) as Handlebars;
    const hbs = root.create();
    // the project's helpers are handed to each render, only those its template calls (compile.ts)
    hbs.registerHelper(JSON_STRING, (value: unknown) => JSON.stringify(textOf(value)).slice(1, -1));
    hbs.registerHelper(VALUE, (value: unknown) => textOf(value));
    // `{{log}}` would write to the console from inside a request: a template has no side effects
    hbs.registerHelper('log', () => '');
    hbs.registerHelper(
      'each',
      countedEach(hbs.helpers['each'] as (...args: unknown[]) => unknown) as HandlebarsNamespace.HelperDelegate,
    );
    engine = hbs;
    return hbs;
  }));
}

export function fakerIfLoaded(): unknown {
  return faker;
}

export function loadFaker(): Promise<unknown> {
  if (faker !== undefined) return Promise.resolve(faker);
  // the English locale alone: the package's main entry would load every locale
  return (fakerLoad ??= import('@faker-js/faker/locale/en').then((m) => (faker = m.faker)));
}

/**
 * The engine of the `wiremock` dialect (docs/templates.md#wiremock-dialect): WireMock's helpers under their names,
 * Handlebars' own block helpers, WireMock's `lookup` and renderings. Made from the loaded engine's package, once.
 */
export function wiremockEngine(used: ReadonlySet<string>): Handlebars {
  // one engine per set of helpers: Handlebars copies and wraps every registered helper on each render, so a
  // template's engine holds the helpers it calls and no others
  const key = [...used].sort().join(' ');
  const cached = wiremock.get(key);
  if (cached !== undefined) return cached;
  if (root === undefined) throw new Error('the template engine is not loaded');
  const hbs = root.create();
  for (const [name, fn] of Object.entries(WIREMOCK_HELPERS))
    if (used.has(name)) hbs.registerHelper(name, fn as HandlebarsNamespace.HelperDelegate);
  hbs.registerHelper(JSON_STRING, (value: unknown) => JSON.stringify(wireText(value)).slice(1, -1));
  hbs.registerHelper(VALUE, (value: unknown) => wireText(value));
  hbs.registerHelper('log', () => '');
  hbs.registerHelper('lookup', wiremockLookup as HandlebarsNamespace.HelperDelegate);
  hbs.registerHelper(
    'each',
    countedEach(hbs.helpers['each'] as (...args: unknown[]) => unknown) as HandlebarsNamespace.HelperDelegate,
  );
  wiremock.set(key, hbs);
  return hbs;
}
