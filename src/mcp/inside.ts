// Paths a tool is given are the agent's, so each is resolved against the workspace folder and refused when it
// leaves it: nothing a tool writes (or names as a config or rule set) is outside the folder `mock mcp` serves.
import { isAbsolute, relative, resolve } from 'node:path';

/** The absolute path of `given` under `root`, or undefined when it resolves outside `root` (or is `root`). */
export function insideWorkspace(root: string, given: string): string | undefined {
  const abs = resolve(root, given);
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return abs;
}

export const INSIDE_MESSAGES = {
  outside: (flag: string, given: string, root: string) =>
    `${flag} '${given}' resolves outside the workspace ${root}; mock mcp reads and writes only inside it`,
} as const;
