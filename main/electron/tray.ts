import { join } from 'node:path';
import { Menu, Tray, nativeImage, type NativeImage } from 'electron';
import { errorMessage } from '../../common/errors.ts';
import type { Locale } from '../../common/i18n/translate.ts';
import type { ConnectionStatus } from '../../common/ipc.ts';
import type { DesktopApp } from '../core/desktop-app.ts';
import { TRAY_STATES, trayMenuModel, type TrayState, type UploadCounts } from './tray-model.ts';

export interface AppTrayOptions {
  app: DesktopApp;
  /** resources/tray: tray-<state>.png (16 px) and tray-<state>@2x.png (32 px), picked by the screen's scale. */
  iconDir: string;
  showWindow: () => void;
  openDue: () => void;
  quit: () => void;
  log: (line: string) => void;
  /** The language of the labels, asked at each render; call relabel() when the setting changes. */
  locale: () => Locale;
}

/**
 * The tray icon: its image tells the state (idle, uploading, offline, attention), its menu the queue, the due items,
 * pause/resume, open and quit. It follows the app's status and count events, so it is right while the window is
 * hidden.
 */
export class AppTray {
  private readonly tray: Tray;
  private readonly icons: Record<TrayState, NativeImage>;
  private readonly options: AppTrayOptions;
  private status: ConnectionStatus | null = null;
  private counts: UploadCounts = {};
  private shownState: TrayState | null = null;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(options: AppTrayOptions) {
    this.options = options;
    this.icons = Object.fromEntries(
      TRAY_STATES.map((state) => [state, nativeImage.createFromPath(join(options.iconDir, `tray-${state}.png`))]),
    ) as Record<TrayState, NativeImage>;
    this.tray = new Tray(this.icons.idle);
    // Linux desktops open the menu on click anyway; on Windows and macOS a click opens the window.
    this.tray.on('click', () => options.showWindow());
    const onStatus = (status: ConnectionStatus): void => {
      this.status = status;
      this.render();
    };
    const onCounts = (counts: UploadCounts): void => {
      this.counts = counts;
      this.render();
    };
    options.app.on('status.changed', onStatus);
    options.app.on('uploads.counts', onCounts);
    this.unsubscribe.push(
      () => options.app.off('status.changed', onStatus),
      () => options.app.off('uploads.counts', onCounts),
    );
    this.render();
    void this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      this.status = await this.options.app.handlers['status.get'](undefined);
      this.counts = await this.options.app.handlers['uploads.counts'](undefined);
      this.render();
    } catch (error) {
      this.options.log(`tray: ${errorMessage(error)}`);
    }
  }

  /** The language changed: the same state in the new words. */
  relabel(): void {
    this.render();
  }

  destroy(): void {
    for (const off of this.unsubscribe) off();
    this.tray.destroy();
  }

  private render(): void {
    const model = trayMenuModel(this.status, this.counts, this.options.locale());
    if (model.state !== this.shownState) {
      this.tray.setImage(this.icons[model.state]);
      this.shownState = model.state;
    }
    this.tray.setToolTip(model.tooltip);
    const handlers = this.options.app.handlers;
    const togglePause = (): void => {
      void (model.paused ? handlers['uploads.resume'](undefined) : handlers['uploads.pause'](undefined)).catch(
        (error: unknown) => this.options.log(`tray: ${errorMessage(error)}`),
      );
    };
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: model.tooltip, enabled: false },
        { label: model.queue, enabled: false },
        { label: model.toggle, click: togglePause },
        { label: model.due, enabled: (this.status?.due_count ?? 0) > 0, click: () => this.options.openDue() },
        { type: 'separator' },
        { label: model.open, click: () => this.options.showWindow() },
        { label: model.quit, click: () => this.options.quit() },
      ]),
    );
  }
}
