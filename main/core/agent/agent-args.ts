import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { watchedFolderSchema, type AfterUploadAction, type WatchedFolder } from '../../../common/settings.ts';

export const AGENT_HELP = `Usage: npm run agent -- [options]

Runs the folder watcher, the upload journal and the reminders without a window (scan stations, servers).
Settings come from the app's settings file; flags override them for this run.

Connection (default: the settings' connection; local mode starts the embedded archive):
  --base-url URL         a hosted Archive Service (the key: ARCHIVE_API_KEY, else the OS keychain)
  --local                the embedded archive (its data under --data-dir/archive)
  --save-key             read an API key from standard input, store it in the keychain for the service, and exit

Folders (given at least once, they replace the settings' folders for this run):
  --folder PATH          watch PATH (repeatable)
  --space ID             target space of the --folder folders
  --tags a,b             tags for their uploads (at most 5)
  --after ACTION         keep (default) | delete | move:DIR
  --no-recursive         only files directly in the folder
  --subfolder-tags       sub-folder names become tags
  --polling              poll instead of native events (network shares)
  --stability-ms N       size and mtime unchanged this long before a file is taken (default 2000)

Other:
  --settings FILE        settings file (default: the app's, e.g. ~/.config/desktop-archive/settings.json)
  --data-dir DIR         the app's data directory (journal, cache, local archive)
  --status-every S       seconds between status lines (default 60; 0 = only on change)
  --quiet                no line per file event
  -h, --help             this text

Environment: ARCHIVE_API_KEY (a key for this run, never stored), DESKTOP_ARCHIVE_DATA_DIR.
Stops cleanly on Ctrl+C / SIGTERM: uploads in flight go back to the queue and continue on the next start.`;

export interface AgentArgs {
  help: boolean;
  baseUrl?: string;
  local: boolean;
  saveKey: boolean;
  folders?: WatchedFolder[];
  settingsFile?: string;
  dataDir?: string;
  statusEverySeconds: number;
  quiet: boolean;
}

/** Parses the agent's flags; throws an Error with a message meant for the user on anything wrong. */
export function parseAgentArgs(argv: readonly string[]): AgentArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      'base-url': { type: 'string' },
      local: { type: 'boolean', default: false },
      'save-key': { type: 'boolean', default: false },
      folder: { type: 'string', multiple: true },
      space: { type: 'string' },
      tags: { type: 'string' },
      after: { type: 'string', default: 'keep' },
      'no-recursive': { type: 'boolean', default: false },
      'subfolder-tags': { type: 'boolean', default: false },
      polling: { type: 'boolean', default: false },
      'stability-ms': { type: 'string' },
      settings: { type: 'string' },
      'data-dir': { type: 'string' },
      'status-every': { type: 'string', default: '60' },
      quiet: { type: 'boolean', default: false },
    },
  });
  if (values['base-url'] && values.local) throw new Error('Give either --base-url or --local, not both');
  if (values['base-url'] && !/^https?:\/\//.test(values['base-url']))
    throw new Error(`--base-url must be an http(s) URL: ${values['base-url']}`);
  const statusEverySeconds = Number(values['status-every']);
  if (!Number.isFinite(statusEverySeconds) || statusEverySeconds < 0)
    throw new Error('--status-every must be a number of seconds');
  let folders: WatchedFolder[] | undefined;
  if (values.folder?.length) {
    const parsed = values.folder.map((path) =>
      watchedFolderSchema.safeParse({
        // Stable across runs: the journal finds an item's folder (its after-upload action) by this id after a restart.
        id: `cli-${createHash('sha256').update(userPath(path)).digest('hex').slice(0, 16)}`,
        path: userPath(path),
        ...(values.space ? { space_id: values.space } : {}),
        metadata: values.tags
          ? {
              tags: values.tags
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            }
          : {},
        recursive: !values['no-recursive'],
        subfolder_tags: values['subfolder-tags'],
        use_polling: values.polling,
        after_upload: parseAfter(values.after),
        ...(values['stability-ms'] !== undefined ? { stability_window_ms: Number(values['stability-ms']) } : {}),
      }),
    );
    folders = parsed.map((result) => {
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new Error(`Invalid folder option ${issue.path.join('.')}: ${issue.message}`);
      }
      return result.data;
    });
  } else if (values.space || values.tags || values['stability-ms'] || values.polling) {
    throw new Error('--space, --tags, --polling and --stability-ms apply to --folder folders; give --folder too');
  }
  return {
    help: values.help,
    baseUrl: values['base-url'],
    local: values.local,
    saveKey: values['save-key'],
    folders,
    settingsFile: values.settings === undefined ? undefined : userPath(values.settings),
    dataDir: values['data-dir'] === undefined ? undefined : userPath(values['data-dir']),
    statusEverySeconds,
    quiet: values.quiet,
  };
}

function parseAfter(value: string): AfterUploadAction {
  if (value === 'keep' || value === 'delete') return { action: value };
  if (value.startsWith('move:') && value.length > 5) {
    const to = userPath(value.slice(5));
    // Made when the first file moves; but a file in its place would fail every move while the uploads look fine.
    if (statSync(to, { throwIfNoEntry: false })?.isDirectory() === false) {
      throw new Error(`--after move:${value.slice(5)}: ${to} is a file, not a folder`);
    }
    return { action: 'move', to };
  }
  throw new Error(`--after must be keep, delete or move:DIR (got ${value})`);
}

/**
 * An absolute path for a path option. A leading `~` is the home folder: the shell expands it only at the start of a
 * word, so `--after move:~/Scans/done` and `--folder=~/Scans` reach the agent with the `~` still in them.
 */
function userPath(value: string): string {
  if (value === '~') return homedir();
  if (value.startsWith('~/') || value.startsWith('~\\')) return join(homedir(), value.slice(2));
  return resolve(value);
}
