import { containsSecret, SECRET_FIELD_NAME } from '../keychain/redact.ts';

export interface ScrubResult {
  value: unknown;
  /** Where secrets were found, as dotted paths ("api_key", "folders.0.metadata.title"); never the secret itself. */
  removed: string[];
}

/**
 * Drops every credential from a parsed settings file: fields named like one (api_key, token, ...) and any string
 * holding something shaped like an API key. An API key belongs in the keychain only; a settings file that carries one
 * (an old version, a hand edit, a pasted key in the wrong box) must not keep it, not even in a copy moved aside.
 */
export function scrubSecrets(value: unknown): ScrubResult {
  const removed: string[] = [];
  const walk = (node: unknown, path: string[]): unknown => {
    if (Array.isArray(node)) {
      const kept: unknown[] = [];
      node.forEach((item, index) => {
        if (typeof item === 'string' && containsSecret(item)) removed.push(dotted([...path, String(index)]));
        else kept.push(walk(item, [...path, String(index)]));
      });
      return kept;
    }
    if (typeof node !== 'object' || node === null) return node;
    const kept: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(node)) {
      const at = [...path, name];
      if (SECRET_FIELD_NAME.test(name) || (typeof child === 'string' && containsSecret(child))) {
        removed.push(dotted(at));
        continue;
      }
      Object.defineProperty(kept, name, {
        value: walk(child, at),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return kept;
  };
  return { value: walk(value, []), removed };
}

/** Where an API key hides in a settings object about to be saved, or null. */
export function findSecret(value: unknown): string | null {
  return scrubSecrets(value).removed[0] ?? null;
}

function dotted(path: string[]): string {
  return path.length === 0 ? '(root)' : path.join('.');
}
