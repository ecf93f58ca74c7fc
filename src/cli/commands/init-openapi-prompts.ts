// The questions `mock --init --from` asks in a terminal (without --yes): the listener (new workspace only),
// the rule set's URL prefix and its file name, with the document's own server path and title as defaults.
import { isIP } from 'node:net';
import { parsePort } from '../../shared/args.js';
import type { InitAnswers } from '../init-files.js';

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
    const ip = await p.text({
      message: 'Listener IP address',
      placeholder: listener.ipAddress,
      defaultValue: listener.ipAddress,
      validate: (v) => (v === undefined || v === '' || isIP(v) !== 0 ? undefined : `'${v}' is not an IP address`),
    });
    if (p.isCancel(ip)) return undefined;
    const port = await p.text({
      message: 'Listener port',
      placeholder: String(listener.port),
      defaultValue: String(listener.port),
      validate: (v) => (v === undefined || v === '' || parsePort(v) !== undefined ? undefined : `'${v}' is not a valid port (must be 0..=65535)`),
    });
    if (p.isCancel(port)) return undefined;
    listener = { ...listener, ipAddress: ip === '' ? listener.ipAddress : ip, port: parsePort(port) ?? listener.port };
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
    validate: (v) => (v === undefined || v === '' || /^[A-Za-z0-9._-]+$/.test(v) ? undefined : 'letters, digits, ".", "_" and "-" only'),
  });
  if (p.isCancel(name)) return undefined;
  p.outro('Writing files.');
  return { listener, basePath, ruleSetName: name === '' ? d.ruleSetName : name };
}
