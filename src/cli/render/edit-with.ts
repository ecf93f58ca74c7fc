// The one command that edits a rule, as `get --why` and `match-test` print it: `--rule` is the 0-based index
// `set rule` takes, while every text line says `rule #<n>` 1-based, so the command is spelled out in full
// rather than left for the reader to convert (docs/files-and-rules.md, "Rule numbers").

const SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** A shell word: as is when it needs no quoting, else in single quotes. */
export function shellWord(s: string): string {
  return SAFE.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `edit with: mock set rule [-c <config>] --rule-set <file> --rule <0-based index>` */
export function editWithLine(ruleSetShown: string, ruleIndex: number, configShown?: string): string {
  const config = configShown === undefined ? '' : ` -c ${shellWord(configShown)}`;
  return `edit with: mock set rule${config} --rule-set ${shellWord(ruleSetShown)} --rule ${ruleIndex}`;
}
