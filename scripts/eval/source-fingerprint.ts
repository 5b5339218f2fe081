/**
 * A fingerprint of what a module's behaviour depends on: the bytes of every project file it loads at run time,
 * directly or through others (static and dynamic relative imports and re-exports), and the installed version of
 * every package among them. A change to any of them changes the fingerprint.
 *
 * Imports are read with the TypeScript parser, and type-only ones (`import type`, `export type`, an import whose
 * every name is marked `type`) are not followed: Node strips them, so a change to a shared types or schema file
 * that other work edits all day cannot change what the module does, and must not throw away a full cache.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');

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

/** An import or re-export that loads nothing at run time. */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false; // a bare `import './x.ts'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** The specifiers a module loads at run time: static imports and re-exports that are not type-only, and `import('…')`. */
export function runtimeImports(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node)) found.push(node.moduleSpecifier.text);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
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
    for (const specifier of runtimeImports(file, source)) {
      if (specifier.startsWith('node:')) continue;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (existsSync(target)) queue.push(target);
      } else {
        packages.add(packageOf(specifier));
      }
    }
  }
  for (const pkg of [...packages].sort()) hash.update(`${pkg}@${installedVersion(pkg)}\0`);
  return hash.digest('hex');
}
