import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { errorMessage } from '../../common/errors.ts';
import { CHOSEN_FILE_MAX_BYTES, CHOSEN_FILES_PER_REQUEST } from '../../common/ipc-names.ts';
import { parseCallInput, type AddFilesOptions, type IpcError, type UploadItemView } from '../../common/ipc.ts';
import type { DesktopApp } from '../core/desktop-app.ts';
import { dispatchCall, toIpcError } from '../core/shell/ipc-dispatch.ts';

/** The options field: a space id and the upload form's metadata, far below this. */
const MAX_OPTIONS_BYTES = 64 * 1024;
/** The files at their limit plus their multipart framing and the options. */
const MAX_REQUEST_BYTES = CHOSEN_FILES_PER_REQUEST * CHOSEN_FILE_MAX_BYTES + 1024 * 1024;

export type ChosenFilesAnswer = {
  status: number;
  body: { ok: true; result: UploadItemView[] } | { ok: false; error: IpcError };
};

const refuse = (status: number, message: string): ChosenFilesAnswer => ({
  status,
  body: { ok: false, error: { message, status } },
});

/**
 * POST /files of the browser shell (the caller checked host, origin and token): a multipart body of an `options` field
 * (JSON: uploads.add's space_id and metadata) followed by `file` parts. Each file is kept in the app's ChosenFiles and
 * then queued as uploads.add would queue it; when anything is refused (bad options, a file too large, the queue's
 * answer) nothing of the request is kept. A refusal of the queue is an answer (200, ok: false) as over the socket; a
 * body the route cannot read is 400, a file or request too large 413.
 */
export async function receiveChosenFiles(app: DesktopApp, request: IncomingMessage): Promise<ChosenFilesAnswer> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    return refuse(415, 'Expected multipart/form-data with an options field and file parts');
  }
  if (Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_BYTES) {
    return refuse(413, `At most ${CHOSEN_FILES_PER_REQUEST} files of up to 50 MB each per request`);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      defParamCharset: 'utf8',
      limits: {
        files: CHOSEN_FILES_PER_REQUEST,
        fields: 1,
        fieldSize: MAX_OPTIONS_BYTES,
        fileSize: CHOSEN_FILE_MAX_BYTES + 1,
      },
    });
  } catch (error) {
    return refuse(400, `Cannot read the upload: ${errorMessage(error)}`);
  }

  let options: AddFilesOptions | null = null;
  let failure: ChosenFilesAnswer | null = null;
  const fail = (answer: ChosenFilesAnswer): void => {
    failure ??= answer;
  };
  const received: Array<Promise<string | null>> = [];

  parser.on('field', (name, value, info) => {
    if (name !== 'options' || info.valueTruncated)
      return fail(refuse(400, 'The upload needs one options field (JSON) of at most 64 KB'));
    try {
      const parsed = JSON.parse(value) as AddFilesOptions;
      // Checked before any file is kept, with the schema uploads.add parses with (the path only stands in for the
      // files still to come; it must be absolute like theirs).
      parseCallInput('uploads.add', { ...parsed, paths: ['/'] });
      options = parsed;
    } catch (error) {
      fail({ status: 200, body: { ok: false, error: toIpcError(error) } });
    }
  });
  parser.on('file', (_name, stream, info) => {
    if (failure || options === null) {
      if (!failure) fail(refuse(400, 'The options field must come before the files'));
      stream.resume();
      return;
    }
    received.push(
      app.chosenFiles.receive(info.filename || 'file', stream).catch((error: unknown) => {
        const refused = toIpcError(error);
        fail({ status: refused.status === 413 ? 413 : 500, body: { ok: false, error: refused } });
        return null;
      }),
    );
  });
  parser.on('filesLimit', () => fail(refuse(413, `At most ${CHOSEN_FILES_PER_REQUEST} files per request`)));

  await new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', (error) => {
      fail(refuse(400, `Cannot read the upload: ${errorMessage(error)}`));
      resolve();
    });
    request.on('aborted', () => {
      fail(refuse(400, 'The upload was cut off'));
      resolve();
    });
    request.pipe(parser);
  });
  const paths = (await Promise.all(received)).filter((path): path is string => path !== null);
  const discardAll = async (): Promise<void> => {
    await Promise.all(paths.map((path) => app.chosenFiles.discard(path)));
  };
  if (failure) {
    await discardAll();
    return failure;
  }
  if (paths.length === 0) return refuse(400, 'No files in the upload');
  const outcome = await dispatchCall(app.handlers, 'uploads.add', { ...(options ?? {}), paths });
  if (!outcome.ok) await discardAll();
  return { status: 200, body: outcome.ok ? { ok: true, result: outcome.result as UploadItemView[] } : outcome };
}
