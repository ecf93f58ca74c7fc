// `mock --init` (and `mock serve --init`): write a starting mock.toml, plus a rule set, a middleware script
// and a TLS section when opted into. Prompts (the @clack/prompts library, loaded only here) when stdin and
// stdout are terminals and --yes is not given; otherwise writes the defaults.
// Never overwrites: an existing ./mock.toml stops it before anything is written (exit 1); an existing
// rule-set or middleware file is kept as it is and still referenced.
import { resolve } from 'node:path';
import { ROOT_CONFIG_FILE } from '../../model/config.js';
import { askListener } from './listener-prompts.js';
import { exitCodeFor } from '../../model/envelope.js';
import { INIT_DEFAULTS, type InitAnswers, initFiles } from '../init-files.js';
import type { Io } from '../io.js';
import { systemReason } from '../request.js';
import { ensureFolder, rootConfigExists, writeNewFile } from '../../workspace/scaffold.js';

const PREFIX = 'mock --init';

export interface InitOptions {
  /** skip prompts, accept defaults */
  readonly yes: boolean;
  /** also scaffold a middleware file (and skip that question) */
  readonly middleware: boolean;
  /** `-p <port>`: written instead of the default (and the prompt's default) */
  readonly port?: number;
}

export async function runInit(opts: InitOptions, io: Io): Promise<number> {
  if (rootConfigExists(io.cwd)) return refuseExisting(io);

  let answers: InitAnswers = { ...INIT_DEFAULTS, middleware: opts.middleware, port: opts.port ?? INIT_DEFAULTS.port };
  if (!opts.yes && io.interactive) {
    const asked = await ask(opts);
    if (asked === undefined) {
      io.err(`${PREFIX}: cancelled; nothing was written\n`);
      return 1;
    }
    answers = asked;
  }

  const created: string[] = [];
  let out = '';
  const fallback = resolve(io.cwd, answers.fallbackDir);
  try {
    if (await ensureFolder(fallback)) out += `fallback directory is created: ${answers.fallbackDir}\n`;
  } catch (e) {
    io.err(`${PREFIX}: cannot create the fallback directory ${answers.fallbackDir}: ${systemReason(e)}\n`);
    return exitCodeFor('io');
  }
  for (const file of initFiles(answers)) {
    try {
      await writeNewFile(resolve(io.cwd, file.path), file.text);
      out += `${file.what} is created: ${file.path}.\n`;
      created.push(file.path);
    } catch (e) {
      const exists = typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'EEXIST';
      if (exists && created.length === 0) return refuseExisting(io);
      if (exists) {
        out += `[warn] ${file.what} exists and is kept as it is: ${file.path}.\n`;
        continue;
      }
      io.out(out);
      io.err(`${PREFIX}: cannot write ${file.path}: ${systemReason(e)}\n`);
      return exitCodeFor('io');
    }
  }
  out += `\nCreated:\n${created.map((p) => `  - ${p}\n`).join('')}\n`;
  out += `Start the server with \`mock\` (reads ./${ROOT_CONFIG_FILE} from the current directory).\n`;
  if (answers.tls)
    out += `[!] TLS was enabled. Place \`cert.pem\` and \`key.pem\` next to ./${ROOT_CONFIG_FILE} before starting.\n`;
  io.out(out);
  return 0;
}

function refuseExisting(io: Io): number {
  io.err(
    `${PREFIX}: ./${ROOT_CONFIG_FILE} already exists; nothing was written. ` +
      `Edit it, or move it away and run mock --init again.\n`,
  );
  return exitCodeFor('conflict');
}

/** The interactive questions; undefined when the user cancels (Ctrl-C / Esc). */
async function ask(opts: InitOptions): Promise<InitAnswers | undefined> {
  const p = await import('@clack/prompts');
  const d = { ...INIT_DEFAULTS, port: opts.port ?? INIT_DEFAULTS.port };
  p.intro('mock --init: setting up a new mock-server config. Press Enter to accept any default.');
  const listener = await askListener(p, d);
  if (listener === undefined) return undefined;
  const fallbackDir = await p.text({
    message: 'Fallback response directory (served when no rule matches)',
    placeholder: d.fallbackDir,
    defaultValue: d.fallbackDir,
  });
  if (p.isCancel(fallbackDir)) return undefined;
  const ruleSet = await p.confirm({ message: 'Create an example rule-set file?', initialValue: true });
  if (p.isCancel(ruleSet)) return undefined;
  let middleware = opts.middleware;
  if (!middleware) {
    const m = await p.confirm({ message: 'Create a middleware (Rhai script) file?', initialValue: false });
    if (p.isCancel(m)) return undefined;
    middleware = m;
  }
  const tls = await p.confirm({
    message: "Enable HTTPS (TLS) section in the config? (you'll need cert/key files)",
    initialValue: false,
  });
  if (p.isCancel(tls)) return undefined;
  p.outro('Writing files.');
  return {
    ipAddress: listener.ipAddress,
    port: listener.port,
    fallbackDir: fallbackDir === '' ? d.fallbackDir : fallbackDir,
    ruleSet,
    middleware,
    tls,
  };
}
