import type { CallOutput, ConnectionStatus, DesktopNotification } from '../../../common/ipc.ts';
import { desktop } from './desktop.ts';
import { folderBrowser } from './folder-browser.svelte.ts';
import { t } from './i18n.svelte.ts';
import { serviceMessage } from './service-messages.ts';

type Counts = CallOutput<'uploads.counts'>;
type Space = CallOutput<'catalog.spaces'>[number];
type Category = CallOutput<'catalog.categories'>[number];

/** A button on a toast (Undo): running it closes the toast. */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  text: string;
  lines?: string[];
  action?: ToastAction;
}

/** App-wide state: connection status, upload counts, catalog, toasts. One instance, fed by desktop events. */
class AppState {
  status = $state<ConnectionStatus | null>(null);
  counts = $state<Counts | null>(null);
  spaces = $state<Space[]>([]);
  categories = $state<Category[]>([]);
  toasts = $state<Toast[]>([]);
  lastNotification = $state<DesktopNotification | null>(null);
  private nextToast = 1;

  queued = $derived.by(() => {
    const c = this.counts;
    if (!c) return 0;
    return (c.queued ?? 0) + (c.hashing ?? 0) + (c.waiting ?? 0) + (c.uploading ?? 0) + (c.paused ?? 0);
  });

  async init(): Promise<void> {
    const api = desktop();
    api.on('status.changed', (s) => {
      this.status = s;
    });
    api.on('uploads.counts', (c) => {
      this.counts = c;
    });
    api.on('notification', (n) => {
      this.lastNotification = n;
      this.toast(n.kind === 'upload-failed' ? 'error' : 'info', `${n.title}: ${n.body}`);
    });
    // Spaces and categories come from the service (a network round trip, or nothing while offline): the window opens
    // on the local status and the cached library without waiting for them; the filters fill in when they arrive.
    void this.loadCatalog();
    await Promise.all([
      api['status.get']().then((s) => {
        this.status = s;
      }),
      api['uploads.counts']()
        .then((c) => {
          this.counts = c;
        })
        .catch(() => undefined),
    ]);
  }

  async loadCatalog(): Promise<void> {
    const api = desktop();
    const [spaces, categories] = await Promise.all([
      api['catalog.spaces']().catch(() => [] as Space[]),
      api['catalog.categories']({}).catch(() => [] as Category[]),
    ]);
    this.spaces = spaces;
    this.categories = categories;
  }

  /**
   * The folder the user picked, null when cancelled: in the system's dialog, or where the shell has none (the browser
   * shell) in the app's own browser of the home folder.
   */
  async pickFolder(title: string): Promise<string | null> {
    const answer = await desktop()['dialogs.pickFolder']({ title });
    return answer.supported ? answer.path : folderBrowser.choose(title);
  }

  toast(kind: Toast['kind'], text: string, lines?: string[], action?: ToastAction): void {
    const id = this.nextToast++;
    this.toasts = [...this.toasts, { id, kind, text, ...(lines ? { lines } : {}), ...(action ? { action } : {}) }];
    // An Undo needs time to be read and reached with the keyboard.
    setTimeout(() => this.dismiss(id), kind === 'error' || lines || action ? 12_000 : 5_000);
  }

  /** A failed call as a toast: in the UI's language where the app knows the message (the original as a second line). */
  error(error: unknown): void {
    const shown = serviceMessage(error, t);
    this.toast('error', shown.text, shown.detail ? [shown.detail] : undefined);
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }
}

export const app = new AppState();
