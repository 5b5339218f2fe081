import { totalsOf } from '../library/due-items.ts';
import { eventsToIcs } from '../library/ics.ts';
import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/** Events and due items (from the local cache), their edits and state changes, snoozing and the calendar export. */
export function eventHandlers(
  services: Pick<
    DesktopServices,
    'core' | 'cache' | 'reminders' | 'settings' | 'now' | 'libraryChanged' | 'emitStatus'
  >,
): HandlersOf<'events'> {
  const client = () => services.core().client;
  return {
    'events.list': async (query) => {
      const page = services.cache.listEvents({
        ...(query.states ? { state: query.states } : {}),
        ...(query.types?.length === 1 ? { event_type: query.types[0] } : {}),
        due_after: query.due_after,
        due_before: query.due_before,
        document_id: query.document_id,
        limit: query.limit,
        offset: query.offset,
      });
      const items =
        query.types && query.types.length > 1
          ? page.items.filter((e) => query.types!.includes(e.event_type))
          : page.items;
      return { items, total: query.types && query.types.length > 1 ? items.length : page.total };
    },
    'events.get': async ({ id }) => client().getEvent(id),
    'events.setState': async ({ id, ...change }) => {
      const event = await client().setEventState(id, change);
      services.cache.upsertEvents([event]);
      services.libraryChanged({ document_ids: [], event_ids: [id] });
      services.reminders.checkSafely();
      return event;
    },
    'events.update': async ({ id, ...patch }) => {
      const event = await client().updateEvent(id, patch);
      services.cache.upsertEvents([event]);
      // A new sender is the document's sender too, and its extracted data now shows the edit: the document view
      // reads the cache, so the document is refreshed with the event rather than at the next sync.
      const document = await client()
        .getDocument(event.document_id)
        .catch(() => null);
      if (document) services.cache.upsertDocuments([document], services.now());
      services.libraryChanged({ document_ids: document ? [event.document_id] : [], event_ids: [id] });
      services.reminders.checkSafely();
      return event;
    },
    'events.due': async ({ types, until }) => {
      const due = services.cache.dueItems({ ...(until ? { until } : {}) });
      if (!types?.length) return due;
      // Every sum is recomputed from what is kept: the cache's totals cover all types.
      const keep = (items: typeof due.overdue.items) => items.filter((e) => types.includes(e.event_type));
      const overdueItems = keep(due.overdue.items);
      const overdue = { ...due.overdue, items: overdueItems, totals: totalsOf(overdueItems) };
      const weeks = due.weeks
        .map((w) => {
          const items = keep(w.items);
          return { ...w, items, totals: totalsOf(items) };
        })
        .filter((w) => w.items.length > 0);
      const all = [...overdue.items, ...weeks.flatMap((w) => w.items)];
      const terms = due.terms.filter((term) => types.includes(term.event.event_type));
      return { ...due, overdue, weeks, totals: totalsOf(all), count: all.length, terms };
    },
    'events.snooze': async ({ id, until }) => {
      services.reminders.snooze(id, Date.parse(until));
      services.emitStatus();
    },
    'events.exportIcs': async () => {
      const events = services.cache.dueEvents();
      return {
        ics: eventsToIcs(events, { now: services.now(), daysBefore: services.settings.get().reminders.days_before }),
        count: events.length,
      };
    },
  };
}
