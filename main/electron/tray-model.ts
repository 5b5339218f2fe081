import { knownMessage } from '../../common/i18n/known-messages.ts';
import type { MessageKey } from '../../common/i18n/messages.ts';
import { translate, type Locale, type Params } from '../../common/i18n/translate.ts';
import type { ConnectionStatus, UPLOAD_ITEM_STATES } from '../../common/ipc.ts';

/** What the tray shows, computed from the app's status and the upload queue's counts (no Electron here: tested). */

export const TRAY_STATES = ['idle', 'uploading', 'offline', 'attention'] as const;
export type TrayState = (typeof TRAY_STATES)[number];
export type UploadCounts = Partial<Record<(typeof UPLOAD_ITEM_STATES)[number], number>>;
export type TrayStatus = Pick<ConnectionStatus, 'online' | 'auth_required' | 'uploads_paused' | 'due_count' | 'reason'>;

/** Work the queue still has to do before an item is done. */
const ACTIVE = ['queued', 'hashing', 'waiting', 'uploading', 'accepted'] as const;

/**
 * Attention wins (a refused key or failed uploads need the user), then offline (nothing moves), then uploading.
 * Due items do not turn the icon: they are counted in the menu and announced by notifications.
 */
export function trayState(status: TrayStatus | null, counts: UploadCounts): TrayState {
  if (status?.auth_required || (counts.failed ?? 0) > 0) return 'attention';
  if (status && !status.online) return 'offline';
  if (!status?.uploads_paused && ACTIVE.some((state) => (counts[state] ?? 0) > 0)) return 'uploading';
  return 'idle';
}

/** Every label of the tray, in the app's language (the strings come from the one catalogue, common/i18n). */
export interface TrayMenuModel {
  state: TrayState;
  tooltip: string;
  queue: string;
  paused: boolean;
  due: string;
  /** "Pause uploads" or "Resume uploads", whichever the click does. */
  toggle: string;
  open: string;
  quit: string;
}

export function trayMenuModel(
  status: TrayStatus | null,
  counts: UploadCounts,
  locale: Locale = 'en',
  appName = 'Desktop Archive',
): TrayMenuModel {
  const t = (key: MessageKey, params?: Params): string => translate(locale, key, params);
  const state = trayState(status, counts);
  const n = (key: keyof UploadCounts): number => counts[key] ?? 0;
  const parts: string[] = [];
  const part = (key: MessageKey, count: number): void => void (count > 0 && parts.push(t(key, { count })));
  part('tray.queue.uploading', n('uploading') + n('hashing'));
  part('tray.queue.waiting', n('queued') + n('waiting') + n('accepted'));
  part('tray.queue.paused', n('paused'));
  part('tray.queue.failed', n('failed'));
  const paused = status?.uploads_paused ?? false;
  const queue = t(paused ? 'tray.queuePaused' : 'tray.queue', {
    parts: parts.length ? parts.join(', ') : t('tray.queue.empty'),
  });
  const dueCount = status?.due_count ?? 0;
  const due = dueCount === 0 ? t('tray.nothingDue') : t('tray.due', { count: dueCount });
  const line: Record<TrayState, () => string> = {
    idle: () => t(paused ? 'tray.state.paused' : 'tray.state.idle'),
    uploading: () => t('tray.state.uploading'),
    offline: () =>
      status?.reason
        ? t('tray.state.offlineReason', { reason: knownMessage(status.reason, t).text })
        : t('tray.state.offline'),
    attention: () =>
      status?.auth_required ? t('tray.state.authRequired') : t('tray.state.failed', { count: n('failed') }),
  };
  return {
    state,
    tooltip: t('tray.tooltip', { app: appName, state: line[state]() }),
    queue,
    paused,
    due,
    toggle: t(paused ? 'tray.resume' : 'tray.pause'),
    open: t('tray.open', { app: appName }),
    quit: t('tray.quit'),
  };
}
