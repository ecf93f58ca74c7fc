// The subcommand table. A bare word in subcommand position must be one of SUBCOMMANDS (else exit 2 with
// a did-you-mean, and nothing starts); a flag there falls through to `serve`, which is what bare `mock` is.
// --help and --version win over anything else. Each command module is imported only when it runs, so
// `mock get` never loads the server, TLS or prompt code.
import { findMetaFlag } from '../shared/args.js';
import { GET_HELP, MATCH_TEST_HELP, MCP_HELP, ROOT_HELP, ROOT_USAGE, VALIDATE_HELP } from './help.js';
import type { Io } from './io.js';
import { suggest } from '../shared/did-you-mean.js';

export const SUBCOMMANDS = ['serve', 'get', 'set', 'match-test', 'validate', 'mcp'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

type CommandRun = (args: readonly string[], io: Io) => Promise<number>;

const LOADERS: Readonly<Record<Subcommand, () => Promise<CommandRun>>> = {
  serve: async () => (await import('./commands/serve.js')).run,
  get: async () => (await import('./commands/get.js')).run,
  set: async () => (await import('./commands/set-rule.js')).run,
  'match-test': async () => (await import('./commands/match-test.js')).run,
  validate: async () => (await import('./commands/validate.js')).run,
  // its MCP SDK is bundled apart (commands/mcp-entry.ts): no other command reads it
  mcp: async () => (await import('./commands/mcp.js')).run,
};

/** `set` prints its own help (it has a `rule` target of its own). */
const HELP: Readonly<Record<Exclude<Subcommand, 'set'>, string>> = {
  serve: ROOT_HELP,
  get: GET_HELP,
  'match-test': MATCH_TEST_HELP,
  validate: VALIDATE_HELP,
  mcp: MCP_HELP,
};

function isSubcommand(word: string): word is Subcommand {
  return (SUBCOMMANDS as readonly string[]).includes(word);
}

/**
 * A file where a subcommand goes: `mock db.json` is json-server's habit (`json-server db.json`), where mock takes
 * `--db`; a document (OpenAPI, a Postman collection, a Mockoon environment) is imported with `--init --from`.
 */
function fileHint(word: string): string {
  if (/\.json5?$/i.test(word))
    return `; did you mean 'mock --db ${word}' (json-server style collections from it) or 'mock --init --from ${word}' (an import)?`;
  if (/\.(ya?ml|har)$/i.test(word)) return `; did you mean 'mock --init --from ${word}' (an import)?`;
  return '';
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const first = argv[0];
  let command: Subcommand = 'serve';
  let rest = argv;
  if (first !== undefined && !first.startsWith('-')) {
    if (!isSubcommand(first)) {
      const near = suggest(first, SUBCOMMANDS);
      // record mode is a flag of the server, not a subcommand: `mock record <url>` means `mock --record <url>`
      const hint =
        first === 'record'
          ? `; did you mean 'mock --record ${argv[1] ?? '<url>'}'?`
          : near !== undefined
            ? `; did you mean '${near}'?`
            : fileHint(first);
      io.err(`mock: unknown subcommand '${first}'${hint}\n`);
      io.err(
        `Usage: ${ROOT_USAGE}\n       mock <serve|get|set|match-test|validate|mcp> [flags]   (mock --help for more)\n`,
      );
      return 2;
    }
    command = first;
    rest = argv.slice(1);
  }
  const meta = findMetaFlag(rest);
  if (meta === 'version') {
    io.out(`mock ${io.version()}\n`);
    return 0;
  }
  if (meta === 'help' && command !== 'set') {
    io.out(HELP[command]);
    return 0;
  }
  const runCommand = await LOADERS[command]();
  return runCommand(rest, io);
}
