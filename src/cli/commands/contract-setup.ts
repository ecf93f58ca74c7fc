// `serve --contract <openapi>` / `service.contract`: the document read as `--init --from` reads it, compiled
// once, as the check dispatch runs per request (contract/gate.ts). Loaded only when a contract is asked for: a
// server without one never reads the OpenAPI parser or ajv. See docs/contract.md.
import { compileContract } from '../../contract/contract.js';
import { contractGate, type ContractMode } from '../../contract/gate.js';
import type { ContractGate } from '../../dispatch/dispatch.js';
import { MockError } from '../../model/errors.js';
import type { Workspace } from '../../model/workspace.js';
import { loadOpenApi } from './openapi-load.js';

export interface ContractChoice {
  /** `--contract`, relative to the current directory; else service.contract (absolute) */
  readonly flag?: string;
  readonly mode?: ContractMode;
}

/** The gate, or undefined when neither the flag nor the config names a document. Rejects with a MockError. */
export async function contractSetup(
  cwd: string,
  choice: ContractChoice,
  ws: Workspace,
): Promise<{ readonly gate: ContractGate; readonly line: string } | undefined> {
  const given = choice.flag ?? ws.config.service.contract;
  if (given === undefined) return undefined;
  const loaded = await loadOpenApi(cwd, given);
  if (!loaded.ok) throw new MockError(loaded.error.kind, `--contract: ${loaded.error.message}`);
  let contract;
  try {
    contract = compileContract(loaded.value.doc);
  } catch (e) {
    throw new MockError(
      'config_invalid',
      `--contract: ${given}: a schema does not compile: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const mode = choice.mode ?? ws.config.service.contractMode ?? 'enforce';
  return {
    gate: contractGate(contract, mode),
    line: `Contract: ${contract.operations.length} operation(s) of ${given} (${mode})`,
  };
}
