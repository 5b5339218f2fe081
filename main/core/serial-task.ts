/**
 * A job that must never overlap itself (rebuilding the core on a new connection). Requests that come while it runs
 * are folded into one more run after it: each run reads the newest state, so the runs in between would only be
 * undone. After close() nothing starts again, and close() returns once the run in progress has finished.
 */
export class SerialTask {
  private readonly job: () => Promise<void>;
  private readonly onError: (error: unknown) => void;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(job: () => Promise<void>, onError: (error: unknown) => void) {
    this.job = job;
    this.onError = onError;
  }

  /** Runs the job now, or once more after the run in progress; resolves when no run is due any more. */
  request(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  get idle(): boolean {
    return this.running === undefined;
  }

  /** Resolves when no run is in progress or due (at once when idle). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** No run starts after this; waits for the one in progress. */
  async close(): Promise<void> {
    this.closed = true;
    this.again = false;
    await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.job();
      } catch (error) {
        this.onError(error);
      }
    } while (this.again && !this.closed);
  }
}
