// The command line of `mock` / `mock serve`, read into what to do: hand over to `--init --from`, to `--init`, or
// serve with these options. Every usage error (exit 2) is found here, before anything is loaded or bound.
import type { OpenApiInitOptions } from './init-openapi.js';
import type { InitOptions } from './init.js';
import type { InspectFlags } from '../inspect-flags.js';
import { parseInspectFlags } from '../inspect-flags.js';
import { recordFlags, type RecordFlags } from './record-setup.js';
import { SERVE_FLAGS } from '../flags.js';
import { flagValue, hasFlag, parseFormat, parsePort, parseArgs, type ParsedArgs } from '../../shared/args.js';
import { IMPORT_FORMATS, isImportFormat } from '../../import/formats.js';
import { parseDbFlags } from './db-flags.js';
import type { DbOptions } from '../../model/collection.js';

export const PREFIX = 'mock';

/** what the serve command line asks for */
export type ServeRequest =
  | { readonly kind: 'usage'; readonly message: string }
  | { readonly kind: 'init-from'; readonly options: OpenApiInitOptions }
  | { readonly kind: 'init'; readonly options: InitOptions }
  | { readonly kind: 'serve'; readonly options: ServeOptions };

export interface ServeOptions {
  readonly port?: number;
  readonly inspect?: InspectFlags;
  readonly contractFlag?: string;
  readonly contractMode?: 'enforce' | 'warn';
  readonly configPath?: string;
  readonly dir?: string;
  readonly db?: string;
  /** json-server's flags that go with --db (db-flags.ts) */
  readonly dbOptions?: DbOptions;
  /** `--host`: listener.ip_address */
  readonly host?: string;
  readonly persist: boolean;
  readonly watch: boolean;
  readonly record?: RecordFlags;
  readonly loadCache: boolean;
}

/** flags that only go with `--init --from <file>` */
const FROM_ONLY = [
  'dry-run',
  'format',
  'verbose',
  'update',
  'from-format',
  'har-host',
  'include-static',
  'postman-env',
] as const;

const usage = (message: string): ServeRequest => ({ kind: 'usage', message });

export function parseServe(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ServeRequest {
  const parsed = parseArgs(argv, SERVE_FLAGS, { prefix: PREFIX, root: true });
  if (!parsed.ok) return usage(parsed.error);
  const args = parsed.value;
  if (args.positionals.length > 0) return usage(`${PREFIX}: unexpected argument '${args.positionals[0]}'`);
  const record = recordFlags(args);
  if (!record.ok) return usage(`${PREFIX}: ${record.error}`);
  const misplaced = misplacedFlag(args, record.value !== undefined);
  if (misplaced !== undefined) return usage(misplaced);
  const from = flagValue(args, 'from');
  if (from !== undefined) return initFrom(args, from);
  if (hasFlag(args, 'init')) {
    const portText = flagValue(args, 'port');
    const port = portText === undefined ? undefined : parsePort(portText);
    if (portText !== undefined && port === undefined)
      return usage(`${PREFIX}: invalid value for --port: '${portText}' (expected 0..65535)`);
    // `mock --init -p 4000` writes the port it was given (and offers it as the prompt's default)
    const init = { yes: hasFlag(args, 'yes'), middleware: hasFlag(args, 'middleware') };
    return { kind: 'init', options: port === undefined ? init : { ...init, port } };
  }
  return serveOptions(args, record.value, env, cwd);
}

/** a flag given without the one it goes with */
function misplacedFlag(args: ParsedArgs, recording: boolean): string | undefined {
  const from = flagValue(args, 'from');
  const stray =
    from === undefined
      ? FROM_ONLY.find((f) => hasFlag(args, f) && !(f === 'dry-run' && recording))
      : hasFlag(args, 'middleware')
        ? 'middleware'
        : undefined;
  if ((from === undefined || hasFlag(args, 'init')) && stray === undefined) return undefined;
  const flag = from !== undefined && !hasFlag(args, 'init') ? 'from' : stray!;
  const goesWith = flag === 'dry-run' ? '--record <url> or --init --from <file>' : '--init --from <file>';
  return `${PREFIX}: --${flag} ${flag === 'middleware' ? 'does not go with --from' : `goes with ${goesWith}`}`;
}

function initFrom(args: ParsedArgs, from: string): ServeRequest {
  const format = parseFormat(args, PREFIX);
  if (!format.ok) return usage(format.error);
  const fromFormat = flagValue(args, 'from-format');
  const harHost = flagValue(args, 'har-host');
  const postmanEnv = flagValue(args, 'postman-env');
  if (fromFormat !== undefined && !isImportFormat(fromFormat))
    return usage(`${PREFIX}: invalid value for --from-format: '${fromFormat}' (expected ${IMPORT_FORMATS.join(', ')})`);
  return {
    kind: 'init-from',
    options: {
      from,
      yes: hasFlag(args, 'yes'),
      dryRun: hasFlag(args, 'dry-run'),
      format: format.value,
      verbose: hasFlag(args, 'verbose'),
      update: hasFlag(args, 'update'),
      ...(fromFormat === undefined ? {} : { fromFormat }),
      ...(harHost === undefined ? {} : { harHost }),
      ...(postmanEnv === undefined ? {} : { postmanEnv }),
      ...(hasFlag(args, 'include-static') ? { includeStatic: true } : {}),
      ...(hasFlag(args, 'no-load-cache') ? { loadCache: false } : {}),
    },
  };
}

function serveOptions(
  args: ParsedArgs,
  record: RecordFlags | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): ServeRequest {
  const portText = flagValue(args, 'port');
  const port = portText === undefined ? undefined : parsePort(portText);
  if (portText !== undefined && port === undefined)
    return usage(`${PREFIX}: invalid value for --port: '${portText}' (expected 0..65535)`);
  const inspect = parseInspectFlags(args, PREFIX, env);
  if (!inspect.ok) return usage(inspect.error);
  const contractMode = flagValue(args, 'contract-mode');
  if (contractMode !== undefined && contractMode !== 'enforce' && contractMode !== 'warn')
    return usage(`${PREFIX}: invalid value for --contract-mode: '${contractMode}' (expected enforce or warn)`);
  const dbFlags = parseDbFlags(args, cwd);
  if (!dbFlags.ok) return usage(`${PREFIX}: ${dbFlags.error}`);
  const given = {
    port,
    inspect: inspect.value,
    contractFlag: flagValue(args, 'contract'),
    contractMode,
    configPath: flagValue(args, 'config'),
    dir: flagValue(args, 'dir') ?? dbFlags.value.dir,
    db: flagValue(args, 'db'),
    dbOptions: dbFlags.value.dbOptions,
    host: dbFlags.value.host,
    record,
  };
  const options: ServeOptions = {
    ...(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<ServeOptions>),
    persist: hasFlag(args, 'persist'),
    watch: !hasFlag(args, 'no-watch'),
    loadCache: !hasFlag(args, 'no-load-cache'),
  };
  return { kind: 'serve', options };
}
