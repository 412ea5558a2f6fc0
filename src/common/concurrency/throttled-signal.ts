/**
 * A signal sent at most once per `intervalMs`: the first request of a quiet spell sends at once, the ones that come
 * while a send is in flight or within `intervalMs` after it are answered by one more send at the interval's end.
 * For a wake-up whose every request means "look again" (the outbox relay's NOTIFY), never for a message with a
 * payload of its own.
 */
export class ThrottledSignal {
  private busy = false;
  private pending = false;
  private timer?: NodeJS.Timeout;
  private sending?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly send: () => Promise<unknown>,
    private readonly onError: (err: Error) => void,
  ) {}

  request(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.pending = true;
      return;
    }
    this.busy = true;
    this.sending = this.send()
      .then(
        () => undefined,
        (err: Error) => this.onError(err),
      )
      .finally(() => {
        this.sending = undefined;
        // unref: a quiet process may exit with an interval running (a wake-up's user must have a floor of its own).
        if (!this.stopped) this.timer = setTimeout(() => this.rest(), this.intervalMs).unref();
      });
  }

  /** Sends nothing more once the send in flight is done (a pending request is dropped). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sending;
  }

  private rest(): void {
    this.busy = false;
    if (!this.pending) return;
    this.pending = false;
    this.request();
  }
}
