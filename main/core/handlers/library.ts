import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/** The library list (from the local cache, so it works offline), search and sync, and the service's catalog. */
export function libraryHandlers(
  services: Pick<DesktopServices, 'cache' | 'core' | 'sync'>,
): HandlersOf<'library' | 'catalog'> {
  const client = () => services.core().client;
  return {
    'library.list': async (query) => {
      const page = services.cache.listDocuments(query);
      const amounts = services.cache.eventAmounts(page.items.map((doc) => doc.id));
      return { items: page.items.map((doc) => ({ ...doc, amount: amounts.get(doc.id) ?? null })), total: page.total };
    },
    'library.search': async (query) => {
      const result = await client().search({
        query: query.query,
        limit: query.limit,
        ...(query.space_id ? { space_id: query.space_id } : {}),
      });
      return { items: result.items, total: result.total };
    },
    'library.sync': async () => {
      const result = await services.sync().syncNow({ full: true });
      return {
        added: result.documents.changed.length,
        updated: result.events.changed.length,
        removed: result.documents.removed.length,
      };
    },

    'library.saveFirstPaint': async (snapshot) => {
      services.cache.saveFirstPaint(snapshot);
      return undefined;
    },

    'catalog.spaces': async () => client().listSpaces(),
    'catalog.categories': async ({ space_id }) => client().listCategories(space_id),
    'catalog.tags': async () => client().listTags(),
  };
}
