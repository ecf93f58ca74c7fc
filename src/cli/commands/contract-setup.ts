// `serve --contract <openapi>` / `service.contract`: the document read as `--init --from` reads it, compiled
// once, as the check dispatch runs per request (contract/gate.ts). Loaded only when a contract is asked for: a
// server without one never reads the OpenAPI parser or ajv. See docs/contract.md.
import { compileContract } from '../../contract/contract.js';
import { contractGate, type ContractMode } from '../../contract/gate.js';
import type { ContractGate } from '../../dispatch/dispatch.js';
import type { Failure } from '../../model/errors.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { Workspace } from '../../model/workspace.js';
import { loadOpenApi } from './openapi-load.js';

export interface ContractChoice {
  /** `--contract`, relative to the current directory; else service.contract (absolute) */
  readonly flag?: string;
  readonly mode?: ContractMode;
}

/**
 * The gate, or undefined when neither the flag nor the config names a document. A failure, not a thrown error:
 * this module is bundled apart (contract.cjs), so an error class of its own would not be the caller's.
 */
export async function contractSetup(
  cwd: string,
  choice: ContractChoice,
  ws: Workspace,
): Promise<Result<{ readonly gate: ContractGate; readonly line: string } | undefined, Failure>> {
  const given = choice.flag ?? ws.config.service.contract;
  if (given === undefined) return ok(undefined);
  const loaded = await loadOpenApi(cwd, given);
  if (!loaded.ok) return err({ kind: loaded.error.kind, message: `--contract: ${loaded.error.message}` });
  let contract;
  try {
    contract = compileContract(loaded.value.doc);
  } catch (e) {
    return err({
      kind: 'config_invalid',
      message: `--contract: ${given}: a schema does not compile: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  const mode = choice.mode ?? ws.config.service.contractMode ?? 'enforce';
  return ok({
    gate: contractGate(contract, mode),
    line: `Contract: ${contract.operations.length} operation(s) of ${given} (${mode})`,
  });
}
