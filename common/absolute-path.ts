/**
 * A path that means the same whatever the app's working directory: POSIX, a Windows drive or a UNC share. Paths the
 * UI sends to main must be absolute; a relative one would be read against wherever the app happened to be started.
 */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}
