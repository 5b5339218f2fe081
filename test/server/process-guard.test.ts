/**
 * The process guard's rules, on an emitter standing in for `process` (a real unhandled rejection in this test worker
 * would end the run): the error logged with its stack, the cleanups run once in reverse order, the exit code. The real
 * thing, an agent process with a rejecting handler, is in test/core/agent-crash.test.ts.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installProcessGuard } from '../../shared/process-guard.ts';

function guarded(cleanupTimeoutMs?: number) {
  const target = new EventEmitter();
  const lines: string[] = [];
  const steps: string[] = [];
  let exited!: (code: number) => void;
  const exitCode = new Promise<number>((resolve) => {
    exited = resolve;
  });
  const guard = installProcessGuard({
    name: 'test',
    log: (line) => lines.push(line),
    target,
    ...(cleanupTimeoutMs ? { cleanupTimeoutMs } : {}),
    exit: (code) => {
      steps.push(`exit ${code}`);
      exited(code);
    },
  });
  return { target, lines, steps, exitCode, guard };
}

describe('installProcessGuard', () => {
  it('logs an unhandled rejection with its stack, runs the cleanups once (last registered first) and exits 1', async () => {
    const { target, lines, steps, exitCode, guard } = guarded();
    guard.onShutdown(async () => {
      steps.push('close journal');
    });
    guard.onShutdown(() => {
      steps.push('stop app');
    });
    const error = new Error('handler failed');
    target.emit('unhandledRejection', error, Promise.resolve());
    target.emit('uncaughtException', new Error('second failure'));
    expect(await exitCode).toBe(1);
    expect(steps).toEqual(['stop app', 'close journal', 'exit 1']);
    expect(lines[0]).toBe(`test: unhandled rejection: ${error.stack}`);
    expect(lines[0]).toContain('process-guard.test.ts');
    expect(lines[1]).toMatch(/^test: uncaught exception: Error: second failure\n\s+at /);
  });

  it('a fatal error during a clean shutdown joins it and makes the exit code 1', async () => {
    const { target, steps, exitCode, guard } = guarded();
    let finishStop!: () => void;
    guard.onShutdown(
      () =>
        new Promise<void>((resolve) => {
          steps.push('stopping');
          finishStop = resolve;
        }),
    );
    const stopped = guard.shutdown(0);
    target.emit('unhandledRejection', 'not an Error');
    finishStop();
    await stopped;
    expect(await exitCode).toBe(1);
    expect(steps).toEqual(['stopping', 'exit 1']);
  });

  it('a failing cleanup is logged, the others still run, and the exit code is 1', async () => {
    const { lines, steps, exitCode, guard } = guarded();
    guard.onShutdown(() => {
      steps.push('close cache');
    });
    guard.onShutdown(() => {
      throw new Error('journal busy');
    });
    await guard.shutdown(0);
    expect(await exitCode).toBe(1);
    expect(steps).toEqual(['close cache', 'exit 1']);
    expect(lines[0]).toMatch(/^test: shutting down: Error: journal busy/);
  });

  it('a cleanup that never finishes does not keep the process from exiting', async () => {
    const { lines, exitCode, guard, target } = guarded(50);
    guard.onShutdown(() => new Promise<void>(() => undefined));
    target.emit('unhandledRejection', new Error('boom'));
    expect(await exitCode).toBe(1);
    expect(lines[1]).toBe('test: shutting down took over 50 ms; exiting without waiting');
  });

  it('a signal stops through the cleanups; a repeat right after is the same stop, a later one exits 130 at once', () => {
    const target = new EventEmitter();
    const steps: string[] = [];
    const lines: string[] = [];
    let clock = 0;
    const guard = installProcessGuard({
      name: 'test',
      log: (line) => lines.push(line),
      target,
      now: () => clock,
      exit: (code) => void steps.push(`exit ${code}`),
    });
    guard.onShutdown(
      () =>
        new Promise<void>(() => {
          steps.push('closing');
        }),
    );
    guard.stopOnSignals((signal) => steps.push(signal));
    target.emit('SIGINT');
    clock = 5;
    target.emit('SIGINT');
    clock = 900;
    target.emit('SIGTERM');
    expect(steps).toEqual(['SIGINT', 'closing']);
    clock = 2_000;
    target.emit('SIGINT');
    expect(steps).toEqual(['SIGINT', 'closing', 'exit 130']);
    expect(lines).toEqual(['test: SIGINT again: exiting without waiting']);
  });
});
