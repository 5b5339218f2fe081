import { describe, expect, it } from 'vitest';
import { ErrorMessage } from '../../common/errors.ts';
import { parseCallInput } from '../../common/ipc.ts';
import { connectionProblem } from '../../common/connection-problems.ts';
import { fileProblem, readFileProblem } from '../../common/file-problems.ts';
import { translate, type Params } from '../../common/i18n/translate.ts';
import { knownMessage, serviceMessage } from '../../renderer/src/lib/service-messages.ts';

const de = (key: Parameters<typeof translate>[1], params?: Params): string => translate('de', key, params);
const en = (key: Parameters<typeof translate>[1], params?: Params): string => translate('en', key, params);

describe('service error messages in the UI language', () => {
  it('translates a message the app knows and keeps the original as the detail', () => {
    expect(serviceMessage({ message: ErrorMessage.invalidKey, status: 401 }, de)).toEqual({
      text: 'Der API-Schlüssel fehlt oder ist ungültig.',
      detail: 'Invalid or missing API key',
    });
    // Wrapped by the app or by Electron's IPC, it is still recognised.
    const wrapped = new Error(
      `Error invoking remote method 'desktop:uploads.add': Error: Upload refused: ${ErrorMessage.unsupportedFormat}`,
    );
    expect(serviceMessage(wrapped, de).text).toBe(
      'Die Datei hat kein unterstütztes Format (PDF, JPEG, PNG, TIFF oder Office).',
    );
  });
  it("words a service URL the contract refuses plainly, the schema's words as the detail", () => {
    // What connection.test (the welcome guide, Settings → Test) and settings.update (Settings → Save) reject with.
    const refused = (call: 'connection.test' | 'settings.update', input: unknown): unknown => {
      try {
        parseCallInput(call, input);
      } catch (error) {
        return error;
      }
      throw new Error(`${call} accepted ${JSON.stringify(input)}`);
    };
    const test = refused('connection.test', { mode: 'hosted', base_url: '' });
    expect(serviceMessage(test, de)).toEqual({
      text: 'Geben Sie die Dienst-URL ein, beginnend mit http:// oder https://',
      detail: 'base_url: base_url must be an http(s) URL',
    });
    const save = refused('settings.update', { connection: { mode: 'hosted', base_url: 'ftp://archive.invalid' } });
    expect(serviceMessage(save, en)).toEqual({
      text: 'Enter the service URL, starting with http:// or https://',
      detail: 'connection.base_url: base_url must be an http(s) URL',
    });
  });
  it('shows a message it does not know as it came', () => {
    expect(serviceMessage({ message: 'disk full' }, de)).toEqual({ text: 'disk full', detail: null });
  });
});

describe("the app's own file problems in the UI language", () => {
  it('reads each problem back with its path, and the system words of an unreadable file', () => {
    const path = '/home/anna/Scans/Rechnung: März.pdf';
    expect(readFileProblem(fileProblem('notFound', { path }))).toEqual({ kind: 'notFound', params: { path } });
    expect(readFileProblem(fileProblem('gone', { path }))).toEqual({ kind: 'gone', params: { path } });
    expect(readFileProblem(fileProblem('notAFile', { path }))).toEqual({ kind: 'notAFile', params: { path } });
    expect(readFileProblem(fileProblem('changedWhileRead', { path }))).toEqual({
      kind: 'changedWhileRead',
      params: { path },
    });
    const unreadable = fileProblem('unreadable', { path, reason: "EACCES: permission denied, open 'x'" });
    // With the row's path known, a ": " inside the path does not cut it short.
    expect(readFileProblem(unreadable, path)).toEqual({
      kind: 'unreadable',
      params: { path, reason: "EACCES: permission denied, open 'x'" },
    });
    expect(readFileProblem(fileProblem('unreadable', { path: '/tmp/a.pdf', reason: 'EIO: i/o error' }))).toEqual({
      kind: 'unreadable',
      params: { path: '/tmp/a.pdf', reason: 'EIO: i/o error' },
    });
    expect(readFileProblem(fileProblem('noSupportedFiles'))).toEqual({ kind: 'noSupportedFiles', params: {} });
    expect(readFileProblem(fileProblem('folderNotFound', { path: '/mnt/nas/Scans' }))).toEqual({
      kind: 'folderNotFound',
      params: { path: '/mnt/nas/Scans' },
    });
    expect(readFileProblem(fileProblem('notAFolder', { path: '/tmp/x.pdf' }))).toEqual({
      kind: 'notAFolder',
      params: { path: '/tmp/x.pdf' },
    });
    // A path with brackets ends where the bracketed code at the end begins.
    const folder = '/mnt/nas (alt)/Scans';
    expect(readFileProblem(fileProblem('folderUnreadable', { path: folder, code: 'EACCES' }))).toEqual({
      kind: 'folderUnreadable',
      params: { path: folder, code: 'EACCES' },
    });
    expect(readFileProblem(fileProblem('outsideHome', { home: '/home/anna' }))).toEqual({
      kind: 'outsideHome',
      params: { home: '/home/anna' },
    });
    // The size read back as digits, the path as it was.
    expect(readFileProblem(fileProblem('changedWhileUploading', { path, expected: 1200, read: 800 }))).toEqual({
      kind: 'changedWhileUploading',
      params: { path, expected: '1200', read: '800' },
    });
    expect(readFileProblem('disk full')).toBeNull();
  });

  it('shows them in German with the path, the English original as the detail', () => {
    const path = '/home/anna/Scans/a.pdf';
    expect(knownMessage(fileProblem('gone', { path }), de, path)).toEqual({
      text: 'Die Datei ist nicht mehr da: /home/anna/Scans/a.pdf',
      detail: `File no longer exists: ${path}`,
    });
    expect(knownMessage(fileProblem('unreadable', { path, reason: 'EACCES: permission denied' }), de, path).text).toBe(
      'Die Datei lässt sich nicht lesen: /home/anna/Scans/a.pdf',
    );
    // An error of uploads.add, as the bridge delivers it.
    expect(serviceMessage({ message: fileProblem('notFound', { path }), status: 400 }, de).text).toBe(
      'Datei nicht gefunden: /home/anna/Scans/a.pdf',
    );
    expect(knownMessage(fileProblem('folderUnreadable', { path: '/mnt/nas/Scans', code: 'EACCES' }), de)).toEqual({
      text: 'Der Ordner lässt sich nicht lesen: /mnt/nas/Scans',
      detail: 'Folder not readable: /mnt/nas/Scans (EACCES)',
    });
    expect(serviceMessage({ message: fileProblem('noSupportedFiles'), status: 400 }, de).text).toBe(
      'Nichts hochzuladen: kein PDF, Bild oder Office-Dokument unter dem Hinzugefügten.',
    );
    // A watched folder's form, and a document's file the app cannot show.
    expect(serviceMessage({ message: fileProblem('folderWatched', { path: '/mnt/nas/Scans' }) }, de).text).toBe(
      'Dieser Ordner wird bereits überwacht: /mnt/nas/Scans',
    );
    expect(serviceMessage({ message: fileProblem('moveTargetIsFolder') }, de).text).toBe(
      'Der Zielordner zum Verschieben darf nicht der überwachte Ordner selbst sein',
    );
    const id = crypto.randomUUID();
    expect(knownMessage(fileProblem('unsupportedFormat', { id }), de)).toEqual({
      text: 'Die Datei hat kein Format, das die App anzeigen oder öffnen kann',
      detail: `The file of document ${id} is in no supported format; it is not shown or opened`,
    });
    // The folder picker's refusal, as folders.browse answers it.
    expect(serviceMessage({ message: fileProblem('outsideHome', { home: '/home/anna' }), status: 403 }, de).text).toBe(
      'Sie können nur Ordner in Ihrem Home-Ordner (/home/anna) durchsuchen',
    );
  });
});

describe('connection problems in the UI language', () => {
  it("reads the client's reasons, wrapped or not, and shows them in German", () => {
    expect(knownMessage(connectionProblem('unreachable', { code: 'ENOTFOUND' }), de)).toEqual({
      text: 'Dienst nicht erreichbar (ENOTFOUND)',
      detail: 'Cannot reach the service (ENOTFOUND)',
    });
    expect(knownMessage(`Upload failed: ${connectionProblem('timeout')}`, de).text).toBe(
      'Der Dienst hat nicht rechtzeitig geantwortet',
    );
    // A hosted service tried without its key (Settings, the welcome guide).
    expect(knownMessage(connectionProblem('keyMissing'), de).text).toBe(
      'Geben Sie einen API-Schlüssel für diesen Dienst ein',
    );
    const invalid = connectionProblem('invalidAnswer', { request: 'GET /v1/documents', issues: 'items.0.id: Invalid' });
    expect(knownMessage(`Sync failed: ${invalid}`, de)).toEqual({
      text: 'Der Dienst hat eine Antwort geschickt, die nicht zu seiner Schnittstelle passt (GET /v1/documents)',
      detail: `Sync failed: ${invalid}`,
    });
    expect(knownMessage(connectionProblem('unreadableAnswer', { status: 502 }), de).text).toBe(
      'Der Dienst hat eine unlesbare Antwort geschickt (HTTP 502)',
    );
  });
});
