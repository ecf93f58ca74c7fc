// Small statistics helpers shared by the bench modules.

/** Nearest-rank percentile of an ascending-sorted array (or typed array). */
export function percentile(sorted, p) {
  const n = sorted.length;
  if (!n) return null;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))];
}

/** Median of the finite numbers in xs (NaN when there are none). */
export function median(xs) {
  const a = xs.filter((x) => Number.isFinite(x)).sort((p, q) => p - q);
  if (!a.length) return NaN;
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
}

export function min(xs) {
  const a = xs.filter(Number.isFinite);
  return a.length ? Math.min(...a) : NaN;
}
export function max(xs) {
  const a = xs.filter(Number.isFinite);
  return a.length ? Math.max(...a) : NaN;
}
