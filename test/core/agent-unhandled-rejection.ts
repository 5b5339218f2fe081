/**
 * Loaded with `node --import` into an agent by agent-crash.test.ts: once the first upload is done, a listener of the
 * app's events rejects without anyone handling it, as a bug in an event handler would. Nothing in the agent's own code
 * rejects unhandled (that is the point of its error handling), so the fault is put in from outside.
 */
import { DesktopApp } from '../../main/core/desktop-app.ts';

const emit = DesktopApp.prototype.emit;
let fired = false;
DesktopApp.prototype.emit = function (this: DesktopApp, event: string, ...args: unknown[]): boolean {
  if (!fired && event === 'uploads.item' && (args[0] as { state?: string }).state === 'done') {
    fired = true;
    void Promise.reject(new Error('injected: a handler of uploads.item rejected'));
  }
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
} as typeof emit;
