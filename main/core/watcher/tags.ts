import { MAX_METADATA_TAGS } from '../../../common/upload-metadata.ts';

/** The service's limit for one tag (common/upload-metadata.ts). */
const MAX_TAG_LENGTH = 100;

/** Directory names between the watched folder and the file, outermost first. `relativePath` is posix. */
export function subfolderTagsOf(relativePath: string): string[] {
  return relativePath
    .split('/')
    .slice(0, -1)
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}

/**
 * The tags an upload carries: the folder's own tags first (they are what the user typed), then sub-folder names,
 * deduplicated case-insensitively (first spelling wins), cut to the service's tag length and capped at its tag count,
 * so the result always passes the metadata schema.
 */
export function mergeTags(folderTags: readonly string[] | undefined, subfolderTags: readonly string[]): string[] {
  const merged = new Map<string, string>();
  for (const raw of [...(folderTags ?? []), ...subfolderTags]) {
    const tag = raw.trim().slice(0, MAX_TAG_LENGTH).trim();
    if (tag.length === 0 || merged.has(tag.toLowerCase())) continue;
    merged.set(tag.toLowerCase(), tag);
    if (merged.size === MAX_METADATA_TAGS) break;
  }
  return [...merged.values()];
}
