// The record of evicted entries' arrival times, for `since: Date` cursors: how many entries received at or after
// a time were evicted. Ids tell that exactly for id cursors; arrival times are not in id order (a delayed answer
// is captured late), so the times themselves are kept: the most recent `capacity` of them (8 bytes each).
export class EvictionRecord {
  private times: Float64Array | undefined;
  private total = 0;

  constructor(private readonly capacity: number) {}

  record(receivedAtMs: number): void {
    const t = (this.times ??= new Float64Array(this.capacity));
    t[this.total % t.length] = receivedAtMs;
    this.total++;
  }

  clear(): void {
    this.times = undefined;
    this.total = 0;
  }

  /** evicted entries received at or after `t`; not exact when older evictions than the record holds may count too */
  countSince(t: number): { dropped: number; exact: boolean } {
    const times = this.times;
    if (times === undefined || this.total === 0) return { dropped: 0, exact: true };
    const remembered = Math.min(this.total, times.length);
    let dropped = 0;
    let oldest = Infinity;
    for (let k = 0; k < remembered; k++) {
      const v = times[(this.total - 1 - k) % times.length]!;
      if (v >= t) dropped++;
      oldest = v;
    }
    return { dropped, exact: remembered === this.total || oldest < t };
  }
}
