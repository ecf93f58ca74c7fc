// Which connections have a response in flight. A connection-level action that writes to the socket (a 400 for a
// malformed request, or handing a repaired request to a fresh parser) must wait until earlier pipelined
// responses on that connection are out, or it would interleave with them.
//
// It also knows which request on a connection is still reading its body: when the parser then fails (a bad
// chunk, a request timeout), that request is the broken one, and it answers the error itself.
/** A request reading its body. `interrupt` answers false when the body turns out to be complete after all (the failure is then a later request's). */
export interface BodyReader {
  interrupt(status: number): boolean;
}

export class SocketActivity {
  private readonly state = new WeakMap<object, { inFlight: number; waiters: (() => void)[] }>();
  private readonly readers = new WeakMap<object, BodyReader>();

  /** A request on this connection is being answered. */
  begin(socket: object): void {
    const s = this.state.get(socket);
    if (s === undefined) this.state.set(socket, { inFlight: 1, waiters: [] });
    else s.inFlight++;
  }

  /** Its response is finished (or abandoned). */
  end(socket: object): void {
    const s = this.state.get(socket);
    if (s === undefined || s.inFlight === 0) return;
    s.inFlight--;
    if (s.inFlight > 0 || s.waiters.length === 0) return;
    const waiters = s.waiters.splice(0);
    for (const run of waiters) run();
  }

  inFlight(socket: object): number {
    return this.state.get(socket)?.inFlight ?? 0;
  }

  /** Run now when nothing is in flight on this connection, else once the last response is out. */
  whenIdle(socket: object, run: () => void): void {
    const s = this.state.get(socket);
    if (s === undefined || s.inFlight === 0) run();
    else s.waiters.push(run);
  }

  /** A request on this connection is reading its body (until doneReading). */
  readingBody(socket: object, reader: BodyReader): void {
    this.readers.set(socket, reader);
  }

  /** That body is read (or abandoned); a later reader on the same connection stays registered. */
  doneReading(socket: object, reader: BodyReader): void {
    if (this.readers.get(socket) === reader) this.readers.delete(socket);
  }

  /** The parser failed while a body was being read: that request answers `status`. False when none was. */
  interruptBody(socket: object, status: number): boolean {
    const reader = this.readers.get(socket);
    if (reader === undefined) return false;
    this.readers.delete(socket);
    return reader.interrupt(status);
  }
}
