// LoopTurn: which turn of the event loop we are in, for sharing work "within one turn" (fs-source.ts).
//
// A turn runs from one check phase to the next. The counter is bumped by a setImmediate scheduled the first time
// it is read in a turn, so an idle process schedules nothing. Work started in a turn, and anything run later in
// that same turn (other I/O callbacks of the same poll phase, their promise continuations), read the same number.
// Caveat: code run in the timers or check phase reads the number of the *following* poll phase.

export class LoopTurn {
  private value = 0;
  private pending = false;
  private readonly bump = (): void => {
    this.value++;
    this.pending = false;
  };

  now(): number {
    if (!this.pending) {
      this.pending = true;
      setImmediate(this.bump).unref();
    }
    return this.value;
  }
}
