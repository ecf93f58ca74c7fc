// Jest in its ESM mode (run with node --experimental-vm-modules): test files are ES modules, used as written.
export default { testEnvironment: 'node', transform: {} };
