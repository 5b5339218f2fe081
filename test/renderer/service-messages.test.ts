import { describe, expect, it } from 'vitest';
import { ErrorMessage } from '../../common/errors.ts';
import { translate } from '../../common/i18n/translate.ts';
import { serviceMessage } from '../../renderer/src/lib/service-messages.ts';

const de = (key: Parameters<typeof translate>[1]): string => translate('de', key);

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
  it('shows a message it does not know as it came', () => {
    expect(serviceMessage({ message: 'disk full' }, de)).toEqual({ text: 'disk full', detail: null });
  });
});
