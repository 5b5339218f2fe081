import { errorMessage } from '../../common/errors.ts';

/**
 * What the long-running commands (server, worker) share: started directly, `main` runs with the command line and an
 * error ends the process with one line and exit code 1; SIGINT and SIGTERM call `stop` once each.
 */
export function runLongRunning(isMain: boolean, main: (argv: string[]) => Promise<void>): void {
  if (!isMain) return;
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`error: ${errorMessage(error)}`);
    process.exitCode = 1;
  });
}

export function onStopSignals(stop: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
}
