import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLES, SCOPES, type Role, type Scope } from '../../common/archive-types.ts';
import { errorMessage } from '../../common/errors.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { readOcrLanguages } from '../catalog/space-ocr-languages.ts';
import { defaultDataDir } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { inCodePointOrder } from '../db/sql-dialect.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import { llmCommand, LLM_HELP, LlmUsageError } from './llm-command.ts';
import { migrateCommand } from './migrate-command.ts';
import { backendsFromEnv, openMetadataStore } from '../archive-backends.ts';
import { DEFAULT_OCR_LANGUAGES, installedOcrLanguages } from '../ocr/tessdata.ts';

const USAGE = `Usage: npm run archive -- [--data-dir DIR] [--json] <command>

Administers an archive's data directory (safe while the server runs).

Commands:
  spaces create NAME [--ocr-languages LIST]
                                     create a space
  spaces set-ocr ID --ocr-languages LIST
                                     set the languages OCR reads a space's scans with
  spaces list                        list spaces
  keys create [options]              create an API key (printed once)
  keys list                          list keys (never their secrets)
  keys revoke ID                     revoke a key at once
  llm set --base-url URL --model NAME [options]
                                     use a language model (OpenAI-compatible chat endpoint) after the rules
  llm show                           show the language model setting (never the API key)
  llm off                            stop using a language model (also over ARCHIVE_LLM_* variables)
  migrate --from DIR --to-database URL --to-blobs URL
                                     copy a SQLite archive to PostgreSQL and a blob store (migrate --help)

Global options:
  --data-dir DIR   the archive (default: ${defaultDataDir()}; env ARCHIVE_DATA_DIR)
  --database URL   an archive kept in PostgreSQL instead (postgres://…; env ARCHIVE_DATABASE_URL)
  --json           machine-readable output
  -h, --help       help (also after a command: keys create --help)

OCR languages (LIST): comma-separated tesseract codes of the installed language data
(${installedOcrLanguages().join(', ')}), e.g. deu or eng or deu,eng; "default" = ${DEFAULT_OCR_LANGUAGES.join(',')}, what a space
uses until set. Applies to documents processed or reprocessed afterwards (see spaces --help).`;

const KEYS_CREATE_HELP = `Usage: npm run archive -- keys create [--name NAME] [--scopes a,b] [--spaces id,id] [--role viewer|editor]

  --name NAME      a label for the key (default: "key <date>")
  --scopes LIST    comma-separated scopes (default: all): ${SCOPES.join(', ')}
  --spaces LIST    comma-separated space ids the key is restricted to (default: every space)
  --role ROLE      viewer (read) or editor (read, upload, delete, reprocess); default editor

The key is printed once. Store it in your client; it cannot be shown again.`;

const SPACES_HELP = `Usage: npm run archive -- spaces create NAME [--ocr-languages LIST]
       npm run archive -- spaces set-ocr ID --ocr-languages LIST
       npm run archive -- spaces list

  --ocr-languages LIST   the languages OCR reads the space's scans (images, scanned PDF pages) with:
                         comma-separated tesseract codes of the installed language data
                         (${installedOcrLanguages().join(', ')}), e.g. deu or eng or deu,eng. Each page is read
                         with the one its text shows; a page that shows none is read with eng if listed, else the first.
                         One language also becomes the language of the documents OCR reads.
                         "default" (or no --ocr-languages at create) = ${DEFAULT_OCR_LANGUAGES.join(',')}.

A change applies to documents processed or reprocessed afterwards (POST /v1/documents/{id}/reprocess).`;

class UsageError extends Error {}

async function openLocalDatabase(dataDirOption: string | undefined): Promise<Sql> {
  const dataDir = dataDirOption ?? defaultDataDir();
  mkdirSync(dataDir, { recursive: true });
  return openDatabase(join(dataDir, 'archive.sqlite'));
}

export async function run(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  if (argv[0] === 'migrate') return migrateCommand(argv.slice(1), out);
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      database: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      spaces: { type: 'string' },
      role: { type: 'string' },
      'ocr-languages': { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string' },
      'api-key-stdin': { type: 'boolean' },
      'timeout-ms': { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  const [group, command, ...rest] = positionals;
  if (values.help || !group) {
    out(
      group === 'keys' && command === 'create'
        ? KEYS_CREATE_HELP
        : group === 'spaces'
          ? SPACES_HELP
          : group === 'llm'
            ? LLM_HELP
            : USAGE,
    );
    return values.help ? 0 : 2;
  }
  const database = values.database ?? backendsFromEnv().database;
  const db = database ? await openMetadataStore(database) : await openLocalDatabase(values['data-dir']);
  const print = (json: unknown, text: string): void => out(values.json ? JSON.stringify(json, null, 2) : text);
  try {
    switch (`${group} ${command ?? ''}`.trim()) {
      case 'spaces create': {
        const name = rest.join(' ').trim();
        if (!name) throw new UsageError('spaces create needs a NAME');
        const ocrLanguages = values['ocr-languages'] === undefined ? null : parseOcrLanguages(values['ocr-languages']);
        const space = { id: randomUUID(), name, ocr_languages: ocrLanguages };
        await db.run(
          'INSERT INTO spaces (id, name, created_at, ocr_languages) VALUES (?, ?, ?, ?)',
          space.id,
          space.name,
          nowIso(),
          ocrLanguages && JSON.stringify(ocrLanguages),
        );
        print(space, `Created space "${space.name}" ${space.id}, OCR languages ${ocrText(ocrLanguages)}`);
        return 0;
      }
      case 'spaces set-ocr': {
        const id = (rest[0] ?? '').toLowerCase();
        if (!id) throw new UsageError('spaces set-ocr needs a space ID (see spaces list)');
        if (values['ocr-languages'] === undefined)
          throw new UsageError('spaces set-ocr needs --ocr-languages LIST (or default)');
        const ocrLanguages = parseOcrLanguages(values['ocr-languages']);
        const changed = await db.run(
          'UPDATE spaces SET ocr_languages = ? WHERE id = ?',
          ocrLanguages && JSON.stringify(ocrLanguages),
          id,
        );
        if (changed.changes === 0) throw new UsageError(`No space with id ${id} (see spaces list)`);
        print({ id, ocr_languages: ocrLanguages }, `Space ${id}: OCR languages ${ocrText(ocrLanguages)}`);
        return 0;
      }
      case 'spaces list': {
        const spaces = (
          await db.all<{
            id: string;
            name: string;
            is_default: number;
            created_at: string;
            ocr_languages: string | null;
          }>(
            `SELECT id, name, is_default, created_at, ocr_languages FROM spaces
            ORDER BY is_default DESC, ${inCodePointOrder(db.dialect, 'name')}`,
          )
        ).map((s) => ({ ...s, is_default: s.is_default === 1, ocr_languages: readOcrLanguages(s.ocr_languages) }));
        print(
          spaces,
          spaces
            .map((s) => `${s.id}  ${s.name}${s.is_default ? '  (default)' : ''}  ocr=${ocrText(s.ocr_languages)}`)
            .join('\n'),
        );
        return 0;
      }
      case 'keys create': {
        const scopes = parseList(values.scopes, SCOPES, 'scope') ?? [...SCOPES];
        const role = (values.role ?? 'editor') as Role;
        if (!ROLES.includes(role)) throw new UsageError(`--role must be viewer or editor, got "${values.role}"`);
        const spaces = values.spaces === undefined ? null : await checkSpaces(db, values.spaces);
        const { record, key } = await createApiKey(db, {
          name: values.name ?? `key ${nowIso().slice(0, 10)}`,
          role,
          scopes,
          spaces,
        });
        print(
          { ...record, key },
          [
            `Created key ${record.id} (${record.name}), role ${record.role}, scopes ${record.scopes.join(',')}, spaces ${record.spaces?.join(',') ?? 'all'}`,
            '',
            `  ${key}`,
            '',
            'This key is shown only once. Store it now.',
          ].join('\n'),
        );
        return 0;
      }
      case 'keys list': {
        const keys = await listApiKeys(db);
        print(
          keys,
          keys
            .map(
              (k) =>
                `${k.id}  ${k.name}  ${k.role}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}  ` +
                `scopes=${k.scopes.join(',')} spaces=${k.spaces?.join(',') ?? 'all'} last_used=${k.last_used_at ?? 'never'}`,
            )
            .join('\n') || 'No keys yet.',
        );
        return 0;
      }
      case 'keys revoke': {
        const id = rest[0] ?? '';
        if (!id) throw new UsageError('keys revoke needs a key ID (see keys list)');
        if (!(await revokeApiKey(db, id))) throw new Error(`No key with id ${id}`);
        print({ id, revoked: true }, `Revoked key ${id}`);
        return 0;
      }
      case 'llm set':
      case 'llm show':
      case 'llm off': {
        const result = await llmCommand(db, command ?? '', values, {
          env: process.env,
          readStdin: () => readFileSync(0, 'utf8'),
        });
        print(result.json, result.text);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${[group, command].filter(Boolean).join(' ')}"`);
    }
  } catch (error) {
    const message = errorMessage(error);
    if (values.json) out(JSON.stringify({ error: message }));
    const usage = error instanceof UsageError || error instanceof LlmUsageError;
    console.error(`error: ${message}${usage ? '\n\n' + (error instanceof LlmUsageError ? LLM_HELP : USAGE) : ''}`);
    return usage ? 2 : 1;
  } finally {
    await db.close();
  }
}

function parseList<T extends string>(raw: string | undefined, allowed: readonly T[], what: string): T[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${what}s needs at least one ${what}`);
  for (const item of items) {
    if (!allowed.includes(item as T)) throw new UsageError(`Unknown ${what} "${item}"; one of: ${allowed.join(', ')}`);
  }
  return [...new Set(items as T[])];
}

/** --ocr-languages: installed tesseract codes in the order given (duplicates dropped); null for "default". */
function parseOcrLanguages(raw: string): string[] | null {
  const items = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (items.length === 1 && items[0] === 'default') return null;
  const installed = installedOcrLanguages();
  if (items.length === 0)
    throw new UsageError(`--ocr-languages needs at least one language; installed: ${installed.join(', ')}`);
  for (const item of items) {
    if (!installed.includes(item)) {
      throw new UsageError(
        `Unknown OCR language "${item}"; installed: ${installed.join(', ')} (tesseract codes, e.g. deu,eng)`,
      );
    }
  }
  return [...new Set(items)];
}

const ocrText = (languages: string[] | null): string =>
  languages?.join(',') ?? `default (${DEFAULT_OCR_LANGUAGES.join(',')})`;

async function checkSpaces(db: Sql, raw: string): Promise<string[]> {
  const ids = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (ids.length === 0) throw new UsageError('--spaces needs at least one space id');
  for (const id of ids) {
    if (!(await db.get('SELECT 1 FROM spaces WHERE id = ?', id)))
      throw new UsageError(`No space with id ${id} (see spaces list)`);
  }
  return [...new Set(ids)];
}

export type { Scope };

if (import.meta.main) {
  try {
    process.exitCode = await run(process.argv.slice(2));
  } catch (error) {
    console.error(`error: ${errorMessage(error)}\n\n${USAGE}`);
    process.exitCode = 2;
  }
}
