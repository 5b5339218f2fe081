import { describe, expect, it } from 'vitest';
import { afterUploadSummary } from '../../common/after-upload-summary.ts';
import { fileProblem } from '../../common/file-problems.ts';
import { translate, type Params } from '../../common/i18n/translate.ts';
import { afterUploadLine } from '../../renderer/src/lib/after-upload-line.ts';

const de = (key: Parameters<typeof translate>[1], params?: Params): string => translate('de', key, params);
const en = (key: Parameters<typeof translate>[1], params?: Params): string => translate('en', key, params);
// A path that holds the templates' own separators (" to ", ": ") and characters special in a regular expression.
const path = '/home/anna/Scans/Brief to Amt: 2024 (1)+$.pdf';

describe('the line under an uploaded file of a watched folder', () => {
  it('says where the file went, or that it was deleted, and nothing for a kept file', () => {
    const moved = afterUploadSummary('moved', { destination: '/home/anna/Archiv/Brief to Amt: 2024 (1)+$.pdf' });
    expect(afterUploadLine(moved, path, de)).toEqual({
      text: 'Verschoben nach /home/anna/Archiv/Brief to Amt: 2024 (1)+$.pdf',
      detail: null,
      warn: false,
    });
    expect(afterUploadLine(afterUploadSummary('deleted'), path, en)?.text).toBe('Deleted from the watched folder');
    expect(afterUploadLine(afterUploadSummary('kept'), path, de)).toBeNull();
    expect(afterUploadLine(null, path, de)).toBeNull();
  });

  it('warns, in the UI language, when the action left the file in the folder', () => {
    const reason = fileProblem('cannotMove', {
      path,
      folder: '/mnt/nas/Archiv',
      reason: "EACCES: permission denied, rename 'x' -> 'y'",
    });
    const failed = afterUploadSummary('failed', { action: 'move', reason });
    expect(afterUploadLine(failed, path, de)).toEqual({
      text: 'Hochgeladen, aber die Datei ließ sich nicht nach /mnt/nas/Archiv verschieben; sie liegt noch am alten Ort',
      detail: reason,
      warn: true,
    });
    const changed = afterUploadSummary('notDone', {
      action: 'delete',
      reason: fileProblem('changedSinceUpload', { path }),
    });
    expect(afterUploadLine(changed, path, de)).toMatchObject({
      text: `Die Datei hat sich nach dem Hochladen geändert und bleibt deshalb im Ordner: ${path}`,
      warn: true,
    });
    const deleteFailed = afterUploadSummary('failed', {
      action: 'delete',
      reason: fileProblem('cannotDelete', { path, reason: 'EBUSY: resource busy or locked' }),
    });
    expect(afterUploadLine(deleteFailed, path, en)?.text).toBe(
      `Uploaded, but the file could not be deleted from the folder: ${path}`,
    );
  });

  it('says nothing when the file was already gone (the action ran before a restart) and shows unknown reasons as they are', () => {
    const gone = afterUploadSummary('notDone', { action: 'move', reason: fileProblem('notFound', { path }) });
    expect(afterUploadLine(gone, path, de)).toBeNull();
    const other = afterUploadSummary('failed', { action: 'move', reason: 'disk quota exceeded' });
    expect(afterUploadLine(other, path, de)).toEqual({ text: 'disk quota exceeded', detail: null, warn: true });
  });
});
