/**
 * A fingerprint of what a module's behaviour depends on: the bytes of every project file it imports, directly or
 * through others (static and dynamic relative imports), and the installed version of every package among them.
 * A change to any of them changes the fingerprint.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** 'pdfjs-dist/legacy/build/pdf.mjs' → 'pdfjs-dist'; '@scope/name/x' → '@scope/name'. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function installedVersion(pkg: string): string {
  const manifest = join(ROOT, 'node_modules', pkg, 'package.json');
  if (!existsSync(manifest)) return 'absent';
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? 'unversioned';
}

/**
 * `entries` are paths relative to the repository root; `extraPackages` names packages loaded by path rather than
 * imported (language data, worker scripts).
 */
export function sourceFingerprint(entries: readonly string[], extraPackages: readonly string[] = []): string {
  const hash = createHash('sha256');
  const seen = new Set<string>();
  const packages = new Set(extraPackages);
  const queue = entries.map((e) => resolve(ROOT, e));
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    hash.update(`${relative(ROOT, file)}\0${source}\0`);
    for (const [, specifier] of source.matchAll(IMPORT)) {
      if (specifier!.startsWith('node:')) continue;
      if (specifier!.startsWith('.')) {
        const target = resolve(dirname(file), specifier!);
        if (existsSync(target)) queue.push(target);
      } else {
        packages.add(packageOf(specifier!));
      }
    }
  }
  for (const pkg of [...packages].sort()) hash.update(`${pkg}@${installedVersion(pkg)}\0`);
  return hash.digest('hex');
}
