// Turning a tool's arguments into the command line the matching command takes, and refusing any path argument
// that leaves the workspace before the command runs.
import { INSIDE_MESSAGES, insideWorkspace } from './inside.js';

export class ArgvBuilder {
  readonly argv: string[];
  /** the first path argument that resolves outside the workspace: the message to answer with */
  outside: string | undefined;
  constructor(
    readonly root: string,
    first: readonly string[],
  ) {
    this.argv = [...first];
  }
  /** `--flag value` when the value is given */
  flag(name: string, value: string | number | undefined): this {
    if (value !== undefined) this.argv.push(name, String(value));
    return this;
  }
  /** `--flag` when true */
  bool(name: string, on: boolean | undefined): this {
    if (on === true) this.argv.push(name);
    return this;
  }
  /** `--flag value` once per value */
  each(name: string, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.argv.push(name, v);
    return this;
  }
  /** `--flag name=value` per pair */
  pairs(name: string, values: Readonly<Record<string, string>> | undefined, sep = '='): this {
    for (const [k, v] of Object.entries(values ?? {})) this.argv.push(name, `${k}${sep}${v}`);
    return this;
  }
  /** `--flag path`, refused (remembered in `outside`) when the path is not inside the workspace */
  path(name: string, value: string | undefined): this {
    if (value === undefined) return this;
    if (insideWorkspace(this.root, value) === undefined)
      this.outside ??= INSIDE_MESSAGES.outside(name, value, this.root);
    this.argv.push(name, value);
    return this;
  }
}
