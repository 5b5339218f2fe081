import type { DesktopNotification } from '../../common/ipc.ts';

/**
 * Where the renderer is loaded from and the hash routes the shell sends it to (renderer/src/lib/routes.ts parses
 * them: #/due, #/uploads, #/document/<id>). A route is a fragment of the app's own URL, so opening one is an in-page
 * navigation, not a reload and not a navigation the window's guard would block.
 */
export const APP_ORIGIN = 'app://app';
export const APP_URL = `${APP_ORIGIN}/index.html`;

export type AppRoute = '#/due' | '#/uploads' | `#/uploads/${number}` | '#/library' | `#/document/${string}`;

/**
 * What a click on a notification opens: a reminder of one event opens that event's document, a digest or summary of
 * several the due items, a failed upload its row in the upload queue. `documentOf` looks the event up (null when it cannot: then
 * the due items are the next best place).
 */
export async function notificationRoute(
  notification: Pick<DesktopNotification, 'kind' | 'eventIds' | 'uploadId'>,
  documentOf: (eventId: string) => Promise<string | null> = async () => null,
): Promise<AppRoute> {
  if (notification.kind === 'upload-failed')
    return notification.uploadId === undefined ? '#/uploads' : `#/uploads/${notification.uploadId}`;
  const [only, ...others] = notification.eventIds;
  if (notification.kind === 'reminder' && only !== undefined && others.length === 0) {
    const documentId = await documentOf(only).catch(() => null);
    if (documentId) return `#/document/${encodeURIComponent(documentId)}`;
  }
  return '#/due';
}
