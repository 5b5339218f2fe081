import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { redactSecrets } from '../keychain/redact.ts';

/**
 * Moves an unusable file out of the way as `<name>.<label>-<timestamp>` beside it, never overwriting and never
 * deleting: the user may want to repair it. The one exception to "content intact" is an API key, which is masked in
 * the copy (and the original removed) because a key must not survive in any file outside the keychain.
 * `replacement` is the content to keep instead, when the caller already removed secrets from a parsed file.
 */
export function moveAside(path: string, label: string, now: Date, replacement?: string): string {
  const target = freeName(`${path}.${label}-${now.toISOString().replace(/[:.]/g, '-')}`);
  const original = readFileSync(path, 'utf8');
  const cleaned = replacement ?? redactSecrets(original);
  if (cleaned === original) {
    renameSync(path, target);
    return target;
  }
  const fd = openSync(target, 'wx', 0o600);
  try {
    writeSync(fd, cleaned);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  unlinkSync(path);
  return target;
}

function freeName(base: string): string {
  if (!existsSync(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}
