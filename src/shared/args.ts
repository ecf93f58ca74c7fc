// Flag parsing for every subcommand: one small table per command, one parser, one set of messages.
//
// Syntax (the usual GNU-style one): `--flag value`, `--flag=value`, `-f value`, `-f=value`, `-fvalue`; `--` ends flags.
// A value flag followed by another flag is dangling (a negative number is taken as a value, so `-b -1` works).
// Unknown flags get a did-you-mean. Paths are not touched here: every path flag is resolved against the
// current directory by the command, so "x" and "./x" name the same file.
import { suggest } from './did-you-mean.js';
import { err, ok, type Result } from './result.js';

export interface FlagSpec {
  /** long name without dashes: 'config' */
  readonly long: string;
  /** one character without the dash: 'c' */
  readonly short?: string;
  readonly takesValue: boolean;
  /** may be given more than once (each value kept, in order) */
  readonly repeat?: boolean;
  /** a path flag: an explicit empty value is an error */
  readonly path?: boolean;
  /** a flag whose value is optional and only ever given inline (`--inspect`, `--inspect=4000`); alone it is '' */
  readonly optionalValue?: boolean;
  /** accepted but left out of suggestions and --help (removed flags that get their own message) */
  readonly hidden?: boolean;
  /** the value's placeholder in --help: '<path>', 'text|json' */
  readonly value?: string;
  /** one line for --help and docs/reference/cli.md (every command's flag has one: cli/flags.test.ts) */
  readonly doc?: string;
}

export interface ParsedArgs {
  /** by long name; boolean flags map to [''] */
  readonly flags: ReadonlyMap<string, readonly string[]>;
  readonly positionals: readonly string[];
}

export interface ParserContext {
  /** 'mock' for the root command, 'mock get' etc. for subcommands */
  readonly prefix: string;
  /** the root's no-suggestion wording differs: `unknown option` rather than `unrecognized argument` */
  readonly root: boolean;
}

const NEGATIVE_NUMBER = /^-\d/;

function flagLabel(spec: FlagSpec): string {
  return spec.short !== undefined ? `--${spec.long} / -${spec.short}` : `--${spec.long}`;
}

export function parseArgs(
  argv: readonly string[],
  specs: readonly FlagSpec[],
  ctx: ParserContext,
): Result<ParsedArgs, string> {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  const byLong = new Map(specs.map((s) => [s.long, s]));
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short!, s]));

  const put = (spec: FlagSpec, value: string): void => {
    const list = flags.get(spec.long) ?? [];
    if (spec.repeat) list.push(value);
    else list.splice(0, list.length, value);
    flags.set(spec.long, list);
  };

  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!tok.startsWith('-') || tok === '-' || NEGATIVE_NUMBER.test(tok)) {
      positionals.push(tok);
      continue;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (tok.startsWith('--')) {
      const eq = tok.indexOf('=');
      const name = eq >= 0 ? tok.slice(2, eq) : tok.slice(2);
      if (eq >= 0) inline = tok.slice(eq + 1);
      spec = byLong.get(name);
      if (spec === undefined) return err(unknownFlag(eq >= 0 ? tok.slice(0, eq) : tok, specs, ctx));
    } else {
      spec = byShort.get(tok[1]!);
      if (spec === undefined) return err(unknownFlag(tok.slice(0, 2), specs, ctx));
      const rest = tok.slice(2);
      if (rest.startsWith('=')) inline = rest.slice(1);
      else if (rest !== '') {
        if (!spec.takesValue) return err(unknownFlag(tok, specs, ctx));
        inline = rest;
      }
    }
    if (!spec.takesValue) {
      if (inline !== undefined) return err(`${ctx.prefix}: --${spec.long} does not take a value`);
      put(spec, '');
      continue;
    }
    let value = inline;
    if (value === undefined && spec.optionalValue) value = '';
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-' && !NEGATIVE_NUMBER.test(next))) {
        return err(`${ctx.prefix}: ${flagLabel(spec)} requires a value`);
      }
      value = next;
      i++;
    }
    if (spec.path && value === '') return err(`${ctx.prefix}: ${flagLabel(spec)} must be a non-empty path, got ''`);
    put(spec, value);
  }
  return ok({ flags, positionals });
}

function unknownFlag(flag: string, specs: readonly FlagSpec[], ctx: ParserContext): string {
  const candidates: string[] = [];
  for (const s of specs) if (!s.hidden && s.short !== undefined) candidates.push(`-${s.short}`);
  for (const s of specs) if (!s.hidden) candidates.push(`--${s.long}`);
  // a short flag is compared with short flags first, a long one with long flags
  const pool = flag.startsWith('--')
    ? candidates.filter((c) => c.startsWith('--'))
    : candidates.filter((c) => !c.startsWith('--'));
  // a near miss is a typo or two: one edit for a short name, two for a longer one
  const limit = flag.replace(/^-+/, '').length >= 5 ? 2 : 1;
  const near = suggest(flag, pool, limit) ?? suggest(flag, candidates, limit);
  if (near !== undefined) return `${ctx.prefix}: unknown option '${flag}'; did you mean '${near}'?`;
  return ctx.root ? `${ctx.prefix}: unknown option '${flag}'` : `${ctx.prefix}: unrecognized argument '${flag}'`;
}

/** The last value of a flag, or undefined. */
export function flagValue(args: ParsedArgs, long: string): string | undefined {
  const list = args.flags.get(long);
  return list === undefined ? undefined : list[list.length - 1];
}

export function flagValues(args: ParsedArgs, long: string): readonly string[] {
  return args.flags.get(long) ?? [];
}

export function hasFlag(args: ParsedArgs, long: string): boolean {
  return args.flags.has(long);
}

/** A port number 0..65535, written as plain digits. */
export function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= 65535 ? n : undefined;
}

export const OUTPUT_FORMATS = ['text', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** --format's line in --help, the same for every command that has it. */
export const FORMAT_DOC = 'text (default): human-readable. json: the response envelope';

export function parseFormat(args: ParsedArgs, prefix: string): Result<OutputFormat, string> {
  const v = flagValue(args, 'format');
  if (v === undefined) return ok('text');
  if ((OUTPUT_FORMATS as readonly string[]).includes(v)) return ok(v as OutputFormat);
  return err(`${prefix}: invalid value for --format: '${v}' (expected 'text' or 'json')`);
}

/** Scan for --help / -h / --version before parsing, so they win over anything else (up to a `--`). */
export function findMetaFlag(argv: readonly string[]): 'help' | 'version' | undefined {
  for (const tok of argv) {
    if (tok === '--') return undefined;
    if (tok === '--help' || tok === '-h') return 'help';
    if (tok === '--version') return 'version';
  }
  return undefined;
}
