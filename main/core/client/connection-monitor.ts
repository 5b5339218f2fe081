import { EventEmitter } from 'node:events';
import { errorMessage } from '../../../common/errors.ts';
import { ArchiveError } from './archive-error.ts';
import { backoffDelay, sleep, type BackoffOptions } from './backoff.ts';

export interface ConnectionState {
  online: boolean;
  reason: string | null;
}

export interface ConnectionMonitorTimings {
  /** Online and nothing heard for this long: one light probe (GET /v1/health), so an idle app notices an outage. */
  idleProbeMs: number;
  /** A probe without an answer within this time counts as unreachable (a stalled service, a dropped route). */
  probeTimeoutMs: number;
  /** Offline: probes with this backoff until one is answered (any other answered request ends it sooner). */
  offlineBackoff: BackoffOptions;
}

/**
 * Offline within idleProbeMs + probeTimeoutMs (4 s) of the service going away while idle; the status promises 5 s.
 * Probes cost the client no token; the service counts health checks in a per-address window of their own (600 a
 * minute), so they never spend the key-less budget of the address.
 */
export const DEFAULT_MONITOR_TIMINGS: ConnectionMonitorTimings = {
  idleProbeMs: 2_000,
  probeTimeoutMs: 2_000,
  offlineBackoff: { baseMs: 1_000, capMs: 30_000 },
};

export interface ConnectionMonitorOptions extends Partial<ConnectionMonitorTimings> {
  /** One light request; resolves on any HTTP answer, rejects with the client's error otherwise. */
  probe: (signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * The one notion of "the service answers" for the whole desktop core: every request through the archive client
 * reports its outcome here (any HTTP answer, even an error status, means reachable; a connection error or timeout
 * means unreachable), and the upload journal, the library sync and the status all read it.
 *
 * Outcomes are ordered by when their request was sent, not by when they arrived: each request takes a ticket as it
 * leaves, and an outcome older than the one that set the current state changes nothing. So a slow answer from a
 * server that was stopping cannot flip the state back to online after a newer request found it gone, and a request
 * that stalled before the service came back cannot flip it offline after a newer one was answered.
 */
export class ConnectionMonitor extends EventEmitter<{ change: [state: ConnectionState] }> {
  private readonly probeOnce: ConnectionMonitorOptions['probe'];
  private readonly timings: ConnectionMonitorTimings;
  private readonly now: () => number;
  private state: ConnectionState = { online: true, reason: null };
  private nextTicket = 1;
  /** The ticket of the outcome that set the current state. */
  private decidedBy = 0;
  private lastHeardAt = 0;
  private loop: { stop: AbortController; done: Promise<void> } | undefined;
  /** Cuts the loop's current wait short when the state changes (online and offline wait differently). */
  private wake = new AbortController();

  constructor(options: ConnectionMonitorOptions) {
    super();
    this.probeOnce = options.probe;
    this.timings = {
      idleProbeMs: options.idleProbeMs ?? DEFAULT_MONITOR_TIMINGS.idleProbeMs,
      probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_MONITOR_TIMINGS.probeTimeoutMs,
      offlineBackoff: options.offlineBackoff ?? DEFAULT_MONITOR_TIMINGS.offlineBackoff,
    };
    this.now = options.now ?? Date.now;
  }

  get online(): boolean {
    return this.state.online;
  }
  get reason(): string | null {
    return this.state.reason;
  }
  get current(): ConnectionState {
    return { ...this.state };
  }

  /** A request is about to leave: its ticket orders its outcome among the others. */
  begin(): number {
    return this.nextTicket++;
  }

  /** The request with this ticket got an HTTP answer (any status). */
  answered(ticket: number): void {
    this.decide(ticket, { online: true, reason: null });
  }

  /** The request with this ticket found no service (connection refused or reset, DNS, timeout). */
  unreachable(ticket: number, reason: string): void {
    this.decide(ticket, { online: false, reason });
  }

  /**
   * Probes once now and returns whether the service answered. A probe whose `signal` fires first counts as
   * unreachable too: the caller's deadline passed without an answer.
   */
  async check(signal?: AbortSignal): Promise<boolean> {
    const stopping = this.loop?.stop.signal;
    const deadline = AbortSignal.timeout(this.timings.probeTimeoutMs);
    const ticket = this.begin();
    try {
      await this.probeOnce(AbortSignal.any([deadline, ...(signal ? [signal] : []), ...(stopping ? [stopping] : [])]));
      this.answered(ticket);
      return true;
    } catch (error) {
      if (stopping?.aborted) return this.state.online;
      const answeredWithError = error instanceof ArchiveError && error.status !== 0;
      if (answeredWithError) {
        this.answered(ticket);
        return true;
      }
      const timedOut = deadline.aborted || signal?.aborted === true;
      this.unreachable(ticket, timedOut ? 'The service did not answer in time' : errorMessage(error));
      return false;
    }
  }

  /** Probes while idle (online) or until the service answers (offline). Bounded by stop(). */
  start(): void {
    if (this.loop) return;
    // The first idle probe comes one interval after the start: whoever starts the monitor is about to send requests.
    this.lastHeardAt = Math.max(this.lastHeardAt, this.now());
    const stop = new AbortController();
    this.loop = { stop, done: this.run(stop.signal) };
  }

  async stop(): Promise<void> {
    const loop = this.loop;
    if (!loop) return;
    loop.stop.abort();
    this.wake.abort();
    await loop.done;
    this.loop = undefined;
  }

  private async run(stop: AbortSignal): Promise<void> {
    let failedProbes = 0;
    while (!stop.aborted) {
      const wait = this.state.online
        ? this.lastHeardAt + this.timings.idleProbeMs - this.now()
        : backoffDelay(failedProbes, this.timings.offlineBackoff);
      if (wait > 0) {
        const woken = this.wake.signal;
        try {
          await sleep(wait, AbortSignal.any([stop, woken]));
        } catch {
          // Woken by a change of state (or stopped): work out the next wait afresh.
          if (woken.aborted && !stop.aborted) this.wake = new AbortController();
          continue;
        }
        // Something else was heard while waiting: no probe needed yet.
        if (this.state.online && this.now() - this.lastHeardAt < this.timings.idleProbeMs) continue;
      }
      if (stop.aborted) break;
      const wasOnline = this.state.online;
      const answered = await this.check();
      failedProbes = answered || wasOnline ? 0 : failedProbes + 1;
    }
  }

  private decide(ticket: number, next: ConnectionState): void {
    if (ticket < this.decidedBy) return; // older than what decided the state: it says nothing about now
    this.decidedBy = ticket;
    this.lastHeardAt = this.now();
    if (next.online === this.state.online && next.reason === this.state.reason) return;
    const changed = next.online !== this.state.online;
    this.state = next;
    if (changed) this.wake.abort();
    this.emit('change', this.current);
  }
}
