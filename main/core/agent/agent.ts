/**
 * `npm run agent`: the headless agent. Watcher, upload journal and (with the library) reminders, no window.
 * One log line per file event, a status line, and a clean stop on SIGINT/SIGTERM with the journal intact.
 */
import { basename, dirname } from 'node:path';
import { text } from 'node:stream/consumers';
import { errorMessage } from '../../../common/errors.ts';
import { connectionSchema, type ConnectionSettings } from '../../../common/settings.ts';
import { installProcessGuard } from '../../../shared/process-guard.ts';
import { redactSecrets } from '../keychain/redact.ts';
import { profileId } from '../keychain/key-store.ts';
import { openKeyStore } from '../keychain/open-key-store.ts';
import { openConfBackend } from '../settings/conf-backend.ts';
import { SettingsStore } from '../settings/settings-store.ts';
import { DesktopApp } from '../desktop-app.ts';
import { defaultAppDataDir, type CoreStatus } from '../desktop-core.ts';
import { AGENT_HELP, parseAgentArgs, type AgentArgs } from './agent-args.ts';
import { agentLogLine } from './agent-log.ts';

const log = (line: string): void => console.log(agentLogLine(line));
// An unhandled rejection anywhere stops the app as Ctrl+C does (the journal keeps the queue) and exits 1.
const guard = installProcessGuard({ name: 'agent', log: (line) => console.error(agentLogLine(line)) });

async function main(): Promise<number> {
  let args: AgentArgs;
  try {
    args = parseAgentArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`agent: ${errorMessage(error)}\nRun "npm run agent -- --help" for the options.`);
    return 2;
  }
  if (args.help) {
    console.log(AGENT_HELP);
    return 0;
  }
  const appDataDir = args.dataDir ?? defaultAppDataDir();
  const backend = openConfBackend(
    args.settingsFile
      ? { cwd: dirname(args.settingsFile), configName: basename(args.settingsFile).replace(/\.json$/, '') }
      : {},
  );
  // The store logs each problem of the file (corrupt, moved aside...) once, as it loads it.
  const settings = new SettingsStore(backend, { log });
  // --base-url / --local apply to this run only: passed to the app, never written to the settings file.
  const connectionOverride: ConnectionSettings | undefined = args.baseUrl
    ? connectionSchema.parse({ mode: 'hosted', base_url: args.baseUrl })
    : args.local
      ? { mode: 'local' }
      : undefined;

  if (args.saveKey) {
    const connection = connectionOverride ?? settings.get().connection;
    if (connection.mode !== 'hosted') {
      console.error('agent: --save-key is for a hosted service (--base-url URL); local mode makes its own key');
      return 2;
    }
    const key = (await text(process.stdin)).trim();
    if (!key) {
      console.error('agent: no key on standard input');
      return 2;
    }
    const opened = await openKeyStore({
      storage: settings.get().key_storage,
      filePath: `${appDataDir}/api-keys.json`,
      log,
    });
    if (opened.store.kind === 'session') {
      console.error(`agent: ${opened.warning ?? 'no keychain available'}`);
      return 1;
    }
    await opened.store.set(profileId(connection.base_url), key);
    log(`key stored in the ${opened.store.kind} for ${connection.base_url}`);
    return 0;
  }

  const app = await DesktopApp.open({
    appDataDir,
    settings,
    folders: args.folders,
    connection: connectionOverride,
    apiKeyOverride: process.env.ARCHIVE_API_KEY || undefined,
    log: args.quiet ? () => {} : log,
    // No window: previews are never asked for.
    previewUrl: (id) => `about:blank#${id}`,
  });
  let stopping: Promise<void> | undefined;
  const stopApp = (): Promise<void> => (stopping ??= app.stop());
  guard.onShutdown(stopApp);
  // A failed upload is already the journal's `failed: <path>: <reason>` line; its notification would repeat it.
  app.on('notification', (n) => {
    if (n.kind !== 'upload-failed') log(`reminder: ${n.title}: ${n.body}`);
  });
  await app.start();
  const core = app.core;
  // The connection monitor assumes online until a request fails; ask once, so the first status line is not a guess.
  await core.journal.checkConnection(AbortSignal.timeout(10_000));
  const folders = args.folders ?? settings.get().folders;
  log(
    `agent: ${core.status().mode} archive at ${core.status().baseUrl}, watching ${folders.length} folder(s): ${folders.map((f) => f.path).join(', ') || '(none)'}`,
  );
  if (folders.length === 0) log('agent: no folders to watch; add some in the settings or with --folder PATH');

  let lastStatus = '';
  const printStatus = (force: boolean) => {
    const line = statusLine(app.status(), app.core.status());
    if (force || line !== lastStatus) log(line);
    lastStatus = line;
  };
  app.on('status.changed', () => printStatus(false));
  const ticker = setInterval(
    () => printStatus(args.statusEverySeconds > 0),
    Math.max(1, args.statusEverySeconds || 5) * 1000,
  );
  printStatus(true);

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`agent: ${signal} received, stopping (the queue is kept)`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  clearInterval(ticker);
  printStatus(true);
  await stopApp();
  log('agent: stopped');
  return 0;
}

/** Online as the app's status says: the newest request to the service was answered (a probe every 2 s while idle). */
function statusLine(status: ReturnType<DesktopApp['status']>, core: CoreStatus): string {
  const c = core.counts;
  const connection = status.auth_required
    ? 'API key needed'
    : status.online
      ? 'online'
      : `offline (${status.reason ?? 'no answer'})`;
  return (
    `status: ${connection}${status.uploads_paused ? ', paused' : ''}; queued ${c.queued + c.hashing + c.waiting}, uploading ${c.uploading}, ` +
    `done ${c.done + c.accepted}, failed ${c.failed}, paused ${c.paused}`
  );
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`agent: ${redactSecrets(errorMessage(error))}`);
    process.exitCode = 1;
  },
);
