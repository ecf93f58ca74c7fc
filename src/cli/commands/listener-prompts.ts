// The listener questions both `mock --init` and `mock --init --from` ask in a terminal: the IP address and the
// port, each defaulting to what the config would get without an answer. The prompt module is passed in, so each
// command still loads @clack/prompts only when it asks.
import { isIP } from 'node:net';
import { parsePort } from '../../shared/args.js';

type Prompts = typeof import('@clack/prompts');

export interface ListenerAnswers {
  readonly ipAddress: string;
  readonly port: number;
}

/** undefined when the user cancels (Ctrl-C / Esc); an empty answer keeps the default. */
export async function askListener(p: Prompts, d: ListenerAnswers): Promise<ListenerAnswers | undefined> {
  const ip = await p.text({
    message: 'Listener IP address',
    placeholder: d.ipAddress,
    defaultValue: d.ipAddress,
    validate: (v) => (v === undefined || v === '' || isIP(v) !== 0 ? undefined : `'${v}' is not an IP address`),
  });
  if (p.isCancel(ip)) return undefined;
  const port = await p.text({
    message: 'Listener port',
    placeholder: String(d.port),
    defaultValue: String(d.port),
    validate: (v) =>
      v === undefined || v === '' || parsePort(v) !== undefined
        ? undefined
        : `'${v}' is not a valid port (must be 0..=65535)`,
  });
  if (p.isCancel(port)) return undefined;
  return { ipAddress: ip === '' ? d.ipAddress : ip, port: parsePort(port) ?? d.port };
}
