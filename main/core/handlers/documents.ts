import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ErrorMessage, errorMessage } from '../../../common/errors.ts';
import { fileProblem } from '../../../common/file-problems.ts';
import type { CallOutput } from '../../../common/ipc.ts';
import { SAVE_FOLDER_MISSING } from '../../../common/ipc-names.ts';
import type { ArchiveClient } from '../client/archive-client.ts';
import { ArchiveError } from '../client/archive-error.ts';
import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

type ReprocessResult = CallOutput<'documents.reprocess'>;

/** One document's detail, file, edits; delete, restore and reprocess for a selection. */
export function documentHandlers(
  services: Pick<
    DesktopServices,
    'core' | 'cache' | 'files' | 'now' | 'libraryChanged' | 'syncSoon' | 'follow' | 'previewUrl' | 'openPath'
  >,
): HandlersOf<'documents'> {
  const client = () => services.core().client;
  const bulk = async (
    ids: string[],
    action: (id: string) => Promise<unknown>,
  ): Promise<CallOutput<'documents.delete'>> => {
    const done: string[] = [];
    const failed: Array<{ id: string; error: string }> = [];
    for (const id of ids) {
      try {
        await action(id);
        done.push(id);
      } catch (error) {
        failed.push({ id, error: errorMessage(error) });
      }
    }
    services.syncSoon();
    return { done, failed };
  };
  return {
    'documents.get': async ({ id }) => {
      const detail = await client().getDocument(id);
      services.cache.upsertDocuments([detail], services.now());
      return detail;
    },
    'documents.preview': async ({ id }) => {
      const file = await services.files.previewFile(id);
      return { url: services.previewUrl(id), mime_type: file.mimeType, file_name: file.fileName, size: file.size };
    },
    'documents.saveAs': async ({ id, directory, create_folders }) => {
      const target = resolve(directory);
      const info = await stat(target).catch(() => null);
      if (!info && !create_folders) throw new ArchiveError(`${SAVE_FOLDER_MISSING}: ${target}`, { status: 409 });
      if (info && !info.isDirectory())
        throw new ArchiveError(fileProblem('notAFolder', { path: target }), { status: 400 });
      return { path: (await client().download(id, target)).path };
    },
    'documents.open': async ({ id }) => {
      const openPath = services.openPath;
      if (!openPath) return { opened: false };
      await openPath(await services.files.openableCopy(id));
      return { opened: true };
    },
    'documents.update': async ({ id, ...changes }) => {
      const detail = await client().updateDocument(id, changes);
      services.cache.upsertDocuments([detail], services.now());
      services.libraryChanged({ document_ids: [id], event_ids: [] });
      // A new sender or type changes the document's event too, "not a duplicate" its twin and their events: the
      // library fetches them now, not at the next interval.
      if (
        changes.sender_name !== undefined ||
        changes.event_type !== undefined ||
        changes.possible_duplicate_of !== undefined
      ) {
        services.syncSoon();
      }
      return detail;
    },
    'documents.delete': async ({ ids }) => bulk(ids, (id) => client().deleteDocument(id)),
    'documents.restore': async ({ ids }) => bulk(ids, (id) => client().restoreDocument(id)),
    'documents.reprocess': async ({ ids }) => {
      const result =
        ids.length === 1
          ? await reprocessOne(client(), ids[0]!)
          : await client()
              .reprocessDocuments(ids)
              .then((bulk) => ({ ...bulk, alreadyProcessing: [] }));
      services.syncSoon();
      services.follow([...result.queued, ...result.alreadyProcessing]);
      return {
        queued: result.queued,
        alreadyProcessing: result.alreadyProcessing,
        skippedPending: result.skippedPending,
        denied: result.denied,
        notFound: result.notFound,
      };
    },
  };
}

/**
 * One document through the single endpoint, which says alreadyProcessing (the bulk one calls it skippedPending), its
 * answers mapped onto the same lists: 404 → notFound, 403 for the space → denied. Anything else (no scope, offline)
 * fails the call, as it would for the bulk endpoint.
 */
async function reprocessOne(client: ArchiveClient, id: string): Promise<ReprocessResult> {
  const result: ReprocessResult = { queued: [], alreadyProcessing: [], skippedPending: [], denied: [], notFound: [] };
  try {
    const answer = await client.reprocessDocument(id);
    (answer.alreadyProcessing ? result.alreadyProcessing : result.queued).push(id);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    if (error.status === 404) result.notFound.push(id);
    else if (error.status === 403 && error.message === ErrorMessage.spaceDenied) result.denied.push(id);
    else throw error;
  }
  return result;
}
