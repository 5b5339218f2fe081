/**
 * `npm start`'s browser shell in a child process of test/core/start-signals.test.ts, with an exit hook that does
 * what signal-exit does when it counts no listener but its own: it removes itself and sends the signal it caught
 * to the process again.
 */
import { runBrowserShell } from '../../scripts/start.ts';

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  const resend = (): void => {
    process.off(signal, resend);
    process.kill(process.pid, signal);
  };
  process.on(signal, resend);
}

await runBrowserShell(process.env.RENDERER_DIR);
