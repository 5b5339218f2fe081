/**
 * The in-app folder picker where the shell has no native one (the browser shell): a screen asks for a folder and
 * waits; App.svelte shows FolderBrowserDialog while a request is open. One request at a time: a second one answers
 * the first with null (cancelled).
 */
interface FolderRequest {
  title: string;
  resolve: (path: string | null) => void;
}

class FolderBrowser {
  request = $state<FolderRequest | null>(null);

  /** The folder the user chose, or null when the dialog was closed. */
  choose(title: string): Promise<string | null> {
    this.request?.resolve(null);
    return new Promise((resolve) => {
      this.request = { title, resolve };
    });
  }

  finish(path: string | null): void {
    const request = this.request;
    this.request = null;
    request?.resolve(path);
  }
}

export const folderBrowser = new FolderBrowser();
