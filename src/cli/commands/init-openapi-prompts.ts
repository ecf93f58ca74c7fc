// The questions `mock --init --from` asks in a terminal (without --yes): the listener (new workspace only),
// the rule set's URL prefix and its file name, with the document's own server path and title as defaults.
import type { InitAnswers } from '../init-files.js';
import { askListener } from './listener-prompts.js';

export interface OpenApiAnswers {
  readonly listener: InitAnswers;
  /** the rule-set file name without .toml */
  readonly ruleSetName: string;
  /** the prefix; '' for none */
  readonly basePath: string;
}

/** undefined when the user cancels (Ctrl-C / Esc). */
export async function askOpenApi(d: OpenApiAnswers, fresh: boolean): Promise<OpenApiAnswers | undefined> {
  const p = await import('@clack/prompts');
  p.intro('mock --init --from: making a workspace from an OpenAPI document. Press Enter to accept any default.');
  let listener = d.listener;
  if (fresh) {
    const asked = await askListener(p, listener);
    if (asked === undefined) return undefined;
    listener = { ...listener, ...asked };
  }
  const basePath = await p.text({
    message: "URL prefix the API answers under (from the document's servers[0].url; empty for none)",
    placeholder: d.basePath === '' ? '(none)' : d.basePath,
    defaultValue: d.basePath,
    validate: (v) => (v === undefined || v === '' || /^\/?[^\s?#]*$/.test(v) ? undefined : 'a URL path such as /v1'),
  });
  if (p.isCancel(basePath)) return undefined;
  const name = await p.text({
    message: 'Rule-set file name (without .toml; from the document title)',
    placeholder: d.ruleSetName,
    defaultValue: d.ruleSetName,
    validate: (v) =>
      v === undefined || v === '' || /^[A-Za-z0-9._-]+$/.test(v) ? undefined : 'letters, digits, ".", "_" and "-" only',
  });
  if (p.isCancel(name)) return undefined;
  p.outro('Writing files.');
  return { listener, basePath, ruleSetName: name === '' ? d.ruleSetName : name };
}
