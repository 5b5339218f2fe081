import { homedir } from 'node:os';
import { join } from 'node:path';

/** Limits of the v1 spec. Configurable so a test or benchmark can shorten the window; these are the defaults. */
export interface ServiceLimits {
  requestsPerWindow: number;
  uploadsPerWindow: number;
  windowMs: number;
  maxUploadBytes: number;
  downloadUrlTtlSeconds: number;
  /** Not the spec's: a request body that brings no byte for this long is answered 408 (docs/api.md). */
  bodyIdleTimeoutMs: number;
  /**
   * Not the spec's: `GET /v1/health` per client address, a window of its own so monitors (the desktop probes every 2 s
   * while idle) never spend the key-less budget of the address (docs/api.md).
   */
  healthRequestsPerWindow: number;
}

export const SPEC_LIMITS: ServiceLimits = {
  requestsPerWindow: 60,
  uploadsPerWindow: 10,
  windowMs: 60_000,
  maxUploadBytes: 50 * 1024 * 1024,
  downloadUrlTtlSeconds: 60,
  bodyIdleTimeoutMs: 30_000,
  healthRequestsPerWindow: 600,
};

export const DEFAULT_PORT = 7474;
export const DEFAULT_HOST = '127.0.0.1';

/** Per-user data directory of the archive (ARCHIVE_DATA_DIR overrides it). */
export function defaultDataDir(): string {
  if (process.env.ARCHIVE_DATA_DIR) return process.env.ARCHIVE_DATA_DIR;
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Desktop Archive', 'archive');
    case 'win32':
      return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Desktop Archive', 'archive');
    default:
      return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'desktop-archive', 'archive');
  }
}
