import { Notification } from 'electron';
import type { DesktopNotification } from '../../common/ipc.ts';

export interface NotifierOptions {
  icon: string;
  /** A click opens the item: shows the window on the notification's route. */
  onClick: (notification: DesktopNotification) => void;
  log: (line: string) => void;
}

/**
 * Native notifications for reminders and failed uploads (the app decides which to send; the settings' reminder and
 * notify_failed_uploads switches apply there). Shown notifications are kept referenced until they close: a
 * garbage-collected Notification loses its click handler (electron/electron#12690).
 */
export class Notifier {
  private readonly options: NotifierOptions;
  private readonly shown = new Set<Notification>();

  constructor(options: NotifierOptions) {
    this.options = options;
  }

  show(item: DesktopNotification): void {
    if (!Notification.isSupported()) {
      this.options.log(`notification (not supported here): ${item.title}`);
      return;
    }
    const notification = new Notification({ title: item.title, body: item.body, icon: this.options.icon });
    const forget = (): void => void this.shown.delete(notification);
    notification.on('click', () => {
      forget();
      this.options.onClick(item);
    });
    notification.on('close', forget);
    notification.on('failed', (_event, error) => {
      forget();
      this.options.log(`notification failed: ${error}`);
    });
    this.shown.add(notification);
    notification.show();
  }

  closeAll(): void {
    for (const notification of this.shown) notification.close();
    this.shown.clear();
  }
}
