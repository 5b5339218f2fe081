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
}

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

  const fatal = (kind: string) => (reason: unknown): void => {
    log(`${options.name}: ${kind}: ${errorStack(reason)}`);
    void shutdown(1);
  };
  const target = options.target ?? process;
  target.on('unhandledRejection', fatal('unhandled rejection'));
  target.on('uncaughtException', fatal('uncaught exception'));

  return { onShutdown: (cleanup) => void cleanups.push(cleanup), shutdown };
}
