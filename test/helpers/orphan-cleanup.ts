import { spawn } from 'node:child_process';

/**
 * A run killed with SIGKILL (a CI timeout, Ctrl+C twice) never reaches its teardown, so a server it started (a
 * PostgreSQL cluster, s3rver) would live on and keep its temp directory. This starts a detached shell that waits for
 * the owner process to end and then runs the commands; `cancel()` ends the watcher once the owner has cleaned up
 * itself. The watcher's loop ends with its owner (it polls once a second).
 */
export interface OrphanCleanup {
  cancel(): void;
}

export function cleanUpWhenGone(ownerPid: number, commands: readonly (readonly string[])[]): OrphanCleanup {
  const script = [
    `while kill -0 ${ownerPid} 2>/dev/null; do sleep 1; done`,
    ...commands.map((command) => `${command.map(shellQuote).join(' ')} >/dev/null 2>&1`),
  ].join('\n');
  const watcher = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  // A machine without sh keeps the old behaviour (teardown only) rather than failing the run.
  watcher.on('error', () => undefined);
  watcher.unref();
  return {
    cancel: () => {
      if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGKILL');
    },
  };
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
