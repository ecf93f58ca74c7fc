// What `mock --init` writes (docs/reference/cli.md): answers in, file texts out. Pure; the init command
// does the prompting and the writing. Everything written loads and serves as it is (the TLS section
// needs the cert and key files to exist first, and the summary says so).
import { MIDDLEWARE_FILE, ROOT_CONFIG_FILE, RULE_SET_FILE } from '../model/config.js';

export interface InitAnswers {
  readonly ipAddress: string;
  readonly port: number;
  readonly fallbackDir: string;
  readonly ruleSet: boolean;
  readonly middleware: boolean;
  readonly tls: boolean;
}

export const INIT_DEFAULTS: InitAnswers = {
  ipAddress: '127.0.0.1',
  port: 3001,
  fallbackDir: '.',
  ruleSet: true,
  middleware: false,
  tls: false,
};

/** A TOML basic string. */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** `ruleSets`: the rule-set files listed (default: the quickstart one); commented out when a.ruleSet is off. */
export function rootConfigText(a: InitAnswers, ruleSets: readonly string[] = [RULE_SET_FILE]): string {
  const tls = a.tls
    ? `[listener.tls]\ncert = "./cert.pem"\nkey = "./key.pem"\n# port = 3002\n`
    : `# [listener.tls]\n# cert = "./cert.pem"\n# key = "./key.pem"\n# # port = 3002\n`;
  return `# mock config: \`mock\` (or \`mock serve\`) in this directory loads it.
# \`mock validate\` checks it; \`mock get /path\` shows what a request would get.

[listener]
ip_address = ${tomlString(a.ipAddress)}
port = ${a.port}
${tls}
[log]
verbose = { header = true, body = true }

[service]
${a.ruleSet ? '' : '# '}rule_sets = [${ruleSets.map(tomlString).join(', ')}]
${a.middleware ? `middlewares = ["${MIDDLEWARE_FILE}"]` : '# middlewares = []'}
fallback_respond_dir = ${tomlString(a.fallbackDir)}
`;
}

export const RULE_SET_TEXT = `# mock quickstart rule set.
#
# \`mock --init\` writes this file - it is what a new project starts from,
# so it stays small and every rule here actually runs. Try:
#   mock get /health
#   mock match-test --rule-set ${RULE_SET_FILE} --path /greet

[[rules]]
when.request.url_path = "/health"
respond.text = "ok"

[[rules]]
when.request.method = "GET"
when.request.url_path = "/greet"
respond.text = "Hello, world."
`;

export const MIDDLEWARE_TEXT = `//! pre-defined variables are available:
//! - url_path: request url path
//! - body: request body json value defined only when exists
//!
//! (ref) The Rhai Book: https://rhai.rs/book/language/statements.html
//!
//! Runs before the rule sets: a returned value serves the response
//! directly, and anything else falls through to \`rule_sets\`.

if url_path == "/hello" {
    return #{ "text": "Hello from middleware!" };
}

return;
`;

export interface InitFile {
  /** relative to the current directory, e.g. "./mock.toml" */
  readonly path: string;
  readonly text: string;
  /** what the file is, for messages */
  readonly what: string;
}

/** The files to write, root config first. */
export function initFiles(a: InitAnswers): readonly InitFile[] {
  const files: InitFile[] = [{ path: `./${ROOT_CONFIG_FILE}`, text: rootConfigText(a), what: 'root config file' }];
  if (a.ruleSet) files.push({ path: `./${RULE_SET_FILE}`, text: RULE_SET_TEXT, what: 'rule set config file' });
  if (a.middleware)
    files.push({ path: `./${MIDDLEWARE_FILE}`, text: MIDDLEWARE_TEXT, what: 'middleware scripting file' });
  return files;
}
