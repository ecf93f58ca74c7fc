// The contract commands' one way in (`validate --against`, `serve --contract`): they bring the OpenAPI parser
// and ajv, so the bundle keeps them apart, in contract.cjs, read only when a contract is asked for
// (scripts/bundle.mjs).
export { runAgainst, type AgainstRun } from './validate-against.js';
export { contractSetup } from './contract-setup.js';
