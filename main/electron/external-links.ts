/**
 * The only URLs the app hands to the operating system (shell.openExternal): http(s) with a host and without
 * credentials. Everything else a page could try (file:, javascript:, smb:, a custom scheme that starts another app,
 * app: itself) stays closed, because openExternal on such a URL can run code or leak a hash of the user's password.
 */
export function isSafeExternalUrl(raw: unknown): boolean {
  if (typeof raw !== 'string' || raw.length > 8192) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.hostname === '' || url.username !== '' || url.password !== '') return false;
  return true;
}
