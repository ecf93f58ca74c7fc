// Per-request timing decisions (docs/faults.md): random delays drawn from the workspace's one seeded generator
// (`service.seed`, advancing per request; without a seed, an unseeded one), and rate-limit windows per rule.
// Pure but for its state, which the caller owns (the server keeps one for its lifetime); the clock is injected.
import type { DelaySpec } from '../model/answer.js';
import type { Rule } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { seededFloats } from '../shared/prng.js';
import { workspaceRandom } from './workspace-random.js';

/** A uniform draw in [0, 1). */
export type Uniform = () => number;

/** Uniform draws in [0, 1), 53 bits each: the same sequence the workspace's generator gives for this seed. */
export function seededUniform(seed: bigint | number): Uniform {
  return seededFloats(seed);
}

/** One delay (whole milliseconds) drawn from `spec`. Log-normal: median · e^(σ·z), z standard normal (Box–Muller). */
export function sampleDelay(spec: DelaySpec, u: Uniform): number {
  switch (spec.kind) {
    case 'fixed':
      return spec.ms;
    case 'uniform':
      return spec.min + Math.floor(u() * (spec.max - spec.min + 1));
    case 'lognormal': {
      const z = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
      return Math.min(MAX_DELAY_MS, Math.round(spec.median * Math.exp(spec.sigma * z)));
    }
  }
}

const MAX_DELAY_MS = 2_147_483_647;

/** The time (ms) a refused request should wait, or undefined when the rule may answer. */
export type LimitCheck = number | undefined;

interface Window {
  start: number;
  used: number;
}

export class PaceState {
  private readonly windows = new WeakMap<Rule, Window>();

  /** `now`: milliseconds (Date.now by default); `unseeded`: the draws when a workspace has no seed */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly unseeded: Uniform = Math.random,
    private readonly generators = new WeakMap<Workspace, Uniform>(),
  ) {}

  /** A session's pace (docs/library.md#sessions): its own rate-limit windows, the workspace's one generator. */
  forSession(): PaceState {
    return new PaceState(this.now, this.unseeded, this.generators);
  }

  /** The workspace's generator: one per workspace, from `service.seed` (a reload starts it again). */
  uniform(ws: Workspace): Uniform {
    let u = this.generators.get(ws);
    if (u === undefined) {
      const seed = ws.config.service.seed;
      this.generators.set(ws, (u = seed === undefined ? this.unseeded : workspaceRandom(ws)));
    }
    return u;
  }

  /**
   * Counts one request against the rule's window (a fixed window from its first request): undefined when it may
   * answer, else the milliseconds until the window ends. A refused request does not count.
   */
  take(rule: Rule, limit: { readonly requests: number; readonly perMs: number }): LimitCheck {
    const t = this.now();
    let w = this.windows.get(rule);
    if (w === undefined || t - w.start >= limit.perMs) this.windows.set(rule, (w = { start: t, used: 0 }));
    if (w.used < limit.requests) {
      w.used++;
      return undefined;
    }
    return w.start + limit.perMs - t;
  }
}
