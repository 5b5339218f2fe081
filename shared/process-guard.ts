/**
 * The last-resort handlers of a process: the server, the headless agent, the browser shell and the Electron shell.
 * Node's default for an unhandled rejection or an uncaught exception is to exit on the spot, with the upload journal,
 * the caches and the archive's database still open and uploads in flight marked as such. Here the error is logged
 * with its stack, the registered cleanups run once (the same ones a Ctrl+C runs), and the process exits non-zero.
 */
import { errorStack } from '../common/errors.ts';

export type Cleanup = () => Promise<void> | void;

export interface ProcessGuard {
  /** Runs at shutdown, after the cleanups registered later (the last thing started is the first stopped). */
  onShutdown(cleanup: Cleanup): void;
  /**
   * Runs the cleanups once and exits with `code` (1 when a cleanup failed or a fatal error came meanwhile). A second call joins the
   * first: a signal during a fatal shutdown, or the reverse, never closes anything twice.
   */
  shutdown(code: number): Promise<void>;
  /**
   * SIGINT and SIGTERM stop the process through the cleanups (exit code 0). A repeat soon after the first is the same
   * stop: a dependency's exit hook (signal-exit, which app-builder-lib's proper-lockfile registers) re-raises the
   * signal it caught. A repeat after that is the user insisting: the process exits at once with 130.
   */
  stopOnSignals(onSignal?: (signal: NodeJS.Signals) => void): void;
}

export interface ProcessGuardOptions {
  /** Starts every log line (`server`, `agent`...). */
  name: string;
  /** Default: console.error. The desktop's callers pass one that redacts API keys. */
  log?: (line: string) => void;
  /** Cleanups that take longer than this are abandoned and the process exits anyway. */
  cleanupTimeoutMs?: number;
  /** Where the handlers go and how the process ends; tests pass their own to check the order of things. */
  target?: Pick<NodeJS.EventEmitter, 'on'>;
  exit?: (code: number) => void;
  /** Signals within this long of the first count as the first (default 1 s: a person's second Ctrl+C takes longer). */
  repeatSignalMs?: number;
  now?: () => number;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function installProcessGuard(options: ProcessGuardOptions): ProcessGuard {
  const log = options.log ?? ((line: string) => console.error(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const timeoutMs = options.cleanupTimeoutMs ?? 15_000;
  const cleanups: Cleanup[] = [];
  let exitCode = 0;
  let stopping: Promise<void> | undefined;

  const runCleanups = async (): Promise<void> => {
    for (const cleanup of cleanups.toReversed()) {
      try {
        await cleanup();
      } catch (error) {
        exitCode = Math.max(exitCode, 1);
        log(`${options.name}: shutting down: ${errorStack(error)}`);
      }
    }
  };

  const shutdown = (code: number): Promise<void> => {
    exitCode = Math.max(exitCode, code);
    stopping ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          log(`${options.name}: shutting down took over ${timeoutMs} ms; exiting without waiting`);
          resolve();
        }, timeoutMs);
      });
      await Promise.race([runCleanups(), timedOut]);
      clearTimeout(timer);
      exit(exitCode);
    })();
    return stopping;
  };

  const fatal =
    (kind: string) =>
    (reason: unknown): void => {
      log(`${options.name}: ${kind}: ${errorStack(reason)}`);
      void shutdown(1);
    };
  const target = options.target ?? process;
  target.on('unhandledRejection', fatal('unhandled rejection'));
  target.on('uncaughtException', fatal('uncaught exception'));

  const now = options.now ?? Date.now;
  const repeatSignalMs = options.repeatSignalMs ?? 1_000;
  let firstSignalAt: number | undefined;
  const stopOnSignals = (onSignal?: (signal: NodeJS.Signals) => void): void => {
    for (const signal of STOP_SIGNALS) {
      target.on(signal, () => {
        if (firstSignalAt === undefined) {
          firstSignalAt = now();
          onSignal?.(signal);
          void shutdown(0);
        } else if (now() - firstSignalAt > repeatSignalMs) {
          log(`${options.name}: ${signal} again: exiting without waiting`);
          exit(130);
        }
      });
    }
  };

  return { onShutdown: (cleanup) => void cleanups.push(cleanup), shutdown, stopOnSignals };
}
