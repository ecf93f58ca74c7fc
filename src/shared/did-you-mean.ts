// Edit distance and a near-match suggestion for unknown words (keys, flags, subcommands).

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  // three rows: i-2, i-1, i (optimal string alignment distance: edits plus adjacent transpositions)
  let before = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      cur[j] = d;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[n]!;
}

/** The closest candidate within a plausible distance, or undefined when nothing is near. */
export function suggest(word: string, candidates: readonly string[], maxDistance?: number): string | undefined {
  const limit = maxDistance ?? Math.max(1, Math.min(3, Math.floor(word.length / 3) + 1));
  let best: string | undefined;
  let bestD = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best !== undefined && bestD <= limit) return best;
  // a prefix is plausible too ("serv" -> "serve", "val" -> "validate")
  const prefixed = candidates.filter((c) => lower.length >= 3 && c.toLowerCase().startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  // so is a name that holds every word of this one ("fallback_dir" -> "fallback_respond_dir")
  const words = lower.split(/[_\-.]+/).filter((w) => w.length > 0);
  if (words.length < 2) return undefined;
  const holding = candidates.filter((c) => {
    const cw = c.toLowerCase().split(/[_\-.]+/);
    return words.every((w) => cw.includes(w));
  });
  return holding.length === 1 ? holding[0] : undefined;
}
