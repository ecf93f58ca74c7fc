// Response templates: compiled at load (config/), rendered per request (dispatch/). Pure: no I/O; the engine and
// faker are loaded on first need. docs/templates.md is the user's page.
export { compileTemplate, type TemplateSyntaxError } from './compile.js';
export { ALIASES, DATA_FIELDS, DATA_ROOTS, HELPER_ALIASES, HELPER_NAMES } from './names.js';
export { engineIfLoaded, fakerIfLoaded, loadEngine, loadFaker, type Handlebars } from './engine.js';
export { templateData } from './data.js';
export { jsonPath, TemplateLimitError } from './helpers.js';
export { headerValue, jsonProblem, unknownRoots } from './checks.js';
