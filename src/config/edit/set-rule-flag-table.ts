// `mock set rule`'s flag table: pure data, apart from the parsing (set-rule-flags.ts) so that --help, which
// reads every command's table through cli/flags.ts, loads nothing else.
import { METHODS } from '../../model/operators.js';
import { FORMAT_DOC, type FlagSpec } from '../../shared/args.js';

/** `mock set rule`'s flags (cli/flags.ts re-exports them for --help and the reference). Every flag is `repeat` so that a flag given twice can be refused (only the condition flags that layer, -H, --query, --cookie, --param and --form, repeat). */
export const SET_RULE_FLAGS: readonly FlagSpec[] = [
  {
    long: 'config',
    short: 'c',
    takesValue: true,
    path: true,
    repeat: true,
    value: '<path>',
    doc: 'The root config to edit (default: ./mock.toml, created if absent)',
  },
  {
    long: 'rule-set',
    takesValue: true,
    path: true,
    repeat: true,
    value: '<path>',
    doc: 'The rule-set file to add to or edit within, relative to the current directory (default: ./mock-rule-set.toml, created if absent)',
  },
  {
    long: 'rule',
    takesValue: true,
    repeat: true,
    value: '<n>',
    doc: 'Edit the existing rule at this 0-based index, instead of adding a new one',
  },
  {
    long: 'path',
    takesValue: true,
    repeat: true,
    value: '<url_path>',
    doc: "The rule's url_path condition (an exact match)",
  },
  {
    long: 'path-template',
    takesValue: true,
    repeat: true,
    value: '<template>',
    doc: "The rule's url_path as a template with named segments, e.g. /users/{id} (op path_template; test a capture with --param)",
  },
  {
    long: 'method',
    takesValue: true,
    repeat: true,
    value: '<METHOD>',
    get doc() {
      return `The rule's method condition: ${METHODS.join(', ')} (any case)`;
    },
  },
  {
    long: 'header',
    short: 'H',
    takesValue: true,
    repeat: true,
    value: '"Name: value"',
    doc: "Add a header condition (op equal); repeatable. With --rule, layers onto the existing rule's conditions rather than replacing them",
  },
  {
    long: 'query',
    takesValue: true,
    repeat: true,
    value: 'name=value',
    doc: 'Add a query condition (op equal; the value as decoded); repeatable, layers like --header',
  },
  {
    long: 'cookie',
    takesValue: true,
    repeat: true,
    value: 'name=value',
    doc: 'Add a cookie condition (op equal); repeatable, layers like --header',
  },
  {
    long: 'param',
    takesValue: true,
    repeat: true,
    value: 'name=value',
    doc: 'Add a condition on a --path-template capture (op equal); repeatable, layers like --header',
  },
  {
    long: 'form',
    takesValue: true,
    repeat: true,
    value: 'name=value',
    doc: 'Add a form-field condition (urlencoded or multipart body; op equal); repeatable, layers like --header',
  },
  {
    long: 'body-contains',
    takesValue: true,
    repeat: true,
    value: '<text>',
    doc: 'Add a condition that the body, as text, contains this (body.text, op contains): XML, SOAP, GraphQL…',
  },
  {
    long: 'status',
    takesValue: true,
    repeat: true,
    value: '<code>',
    doc: 'The response status code (100-999), with any body (--json, --text or --file) or alone',
  },
  {
    long: 'json',
    takesValue: true,
    repeat: true,
    value: '<value>',
    doc: 'The response body, as JSON (validated). Writes respond.json, served as application/json',
  },
  { long: 'text', takesValue: true, repeat: true, value: '<value>', doc: 'The response body, as plain text' },
  {
    long: 'file',
    takesValue: true,
    path: true,
    repeat: true,
    value: '<path>',
    doc: 'The response body, served from a file (a path relative to the current directory)',
  },
  {
    long: 'template',
    takesValue: false,
    doc: 'Make the answer a response template (respond.template = true): --json, --text and headers built from the request, e.g. {{request.params.id}}',
  },
  { long: 'delay', takesValue: true, repeat: true, value: '<ms>', doc: 'Delay the response by this many milliseconds' },
  { long: 'dry-run', takesValue: false, doc: 'Show what would change, as a diff, without writing anything' },
  { long: 'format', takesValue: true, repeat: true, value: 'text|json', doc: FORMAT_DOC },
  { long: 'allow-outside', takesValue: false, doc: 'Permit --rule-set to resolve outside the config directory' },
];
