// The workspace's one random generator: what response templates (and any other capability that needs seeded
// randomness) draw from. Seeded by `service.seed`, it advances with each draw of each request, so a run with a seed
// gives the same sequence every time; without a seed it is Math.random. One per loaded workspace: a reload (a new
// Workspace) starts the sequence again from the seed. The random strategies' own seeds are not this generator.
import type { Workspace } from '../model/workspace.js';
import { seededFloats } from '../shared/prng.js';

const generators = new WeakMap<Workspace, () => number>();

export function workspaceRandom(ws: Workspace): () => number {
  let g = generators.get(ws);
  if (g === undefined) {
    const seed = ws.config.service.seed;
    g = seed === undefined ? Math.random : seededFloats(seed);
    generators.set(ws, g);
  }
  return g;
}
