/** The part of a DataTransferItem that tells a folder from a file (Chromium, Firefox and Safari all have it). */
export interface DroppedItemLike {
  webkitGetAsEntry?: () => { isDirectory: boolean; name: string } | null;
}

/**
 * What a browser drop holds: the files it can send, and the folders it cannot. A browser hands a dropped folder over as
 * an empty File that fails when read, so folders are named to the user and left out (their paths are typed instead).
 */
export function splitDrop<F extends { name: string }>(
  files: readonly F[],
  items: readonly DroppedItemLike[],
): { files: F[]; folders: string[] } {
  const folders = new Set<string>();
  for (const item of items) {
    const entry = item.webkitGetAsEntry?.();
    if (entry?.isDirectory) folders.add(entry.name);
  }
  return { files: files.filter((file) => !folders.has(file.name)), folders: [...folders] };
}
