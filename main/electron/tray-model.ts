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

export interface TrayMenuModel {
  state: TrayState;
  tooltip: string;
  queue: string;
  paused: boolean;
  due: string;
}

export function trayMenuModel(status: TrayStatus | null, counts: UploadCounts, appName = 'Desktop Archive'): TrayMenuModel {
  const state = trayState(status, counts);
  const n = (key: keyof UploadCounts): number => counts[key] ?? 0;
  const parts: string[] = [];
  if (n('uploading') + n('hashing') > 0) parts.push(`${n('uploading') + n('hashing')} uploading`);
  if (n('queued') + n('waiting') + n('accepted') > 0) parts.push(`${n('queued') + n('waiting') + n('accepted')} waiting`);
  if (n('paused') > 0) parts.push(`${n('paused')} paused`);
  if (n('failed') > 0) parts.push(`${n('failed')} failed`);
  const paused = status?.uploads_paused ?? false;
  const queue = `Queue: ${parts.length ? parts.join(', ') : 'empty'}${paused ? ' (uploads paused)' : ''}`;
  const dueCount = status?.due_count ?? 0;
  const due = dueCount === 0 ? 'Nothing due' : dueCount === 1 ? '1 item due' : `${dueCount} items due`;
  const line: Record<TrayState, string> = {
    idle: paused ? 'uploads paused' : 'up to date',
    uploading: 'uploading',
    offline: `offline${status?.reason ? `: ${status.reason}` : ''}`,
    attention: status?.auth_required ? 'the service needs a new API key' : `${n('failed')} upload(s) failed`,
  };
  return { state, tooltip: `${appName}: ${line[state]}`, queue, paused, due };
}
