/** The paths of events. */
import { EVENT_STATES, EVENT_TYPES } from '../../../common/archive-types.ts';
import { ErrorMessage } from '../../../common/errors.ts';
import { MANUAL_TRANSITIONS } from '../../events/event-state.ts';
import { schemaRef as ref } from './component-schemas.ts';
import {
  date,
  INVALID_PARAMETER,
  jsonResponse,
  limitParam,
  oneOf,
  operation,
  param,
  query,
  QUERY_ERRORS,
  timestamp,
  UNKNOWN_PARAMETER,
  uuid,
  WRITE_403,
  type PathItems,
} from './operations.ts';

export function eventPaths(): PathItems {
  return {
    '/v1/events': {
      get: operation('/v1/events', {
        operationId: 'listEvents',
        tag: 'Events',
        scope: 'events:read',
        summary: 'List events',
        description:
          'Events whose (non-deleted) document is in a space the key can see. Ordered by due date (soonest ' +
          'first, undated last), then newest first.',
        parameters: [
          query('state', oneOf(EVENT_STATES), 'Only this state.'),
          query('event_type', oneOf(EVENT_TYPES), 'Only this type.'),
          query('due_before', date(), 'Due on or before this date (YYYY-MM-DD). Undated events never match.'),
          query('due_after', date(), 'Due on or after this date (YYYY-MM-DD). Undated events never match.'),
          param('SpaceFilter'),
          query('document_id', uuid(), 'Only events of this document.'),
          query('updated_after', timestamp(), 'Only events updated strictly after it (ISO 8601).'),
          limitParam(25),
          param('Offset'),
        ],
        responses: { 200: jsonResponse('A page of events', ref('EventList')) },
        errors: { 400: QUERY_ERRORS, 403: [ErrorMessage.spaceDenied] },
      }),
    },
    '/v1/events/{id}': {
      get: operation('/v1/events/{id}', {
        operationId: 'getEvent',
        tag: 'Events',
        scope: 'events:read',
        summary: 'Get an event',
        description: 'One event with its source document, payments and state history.',
        parameters: [param('EventId')],
        responses: { 200: jsonResponse('The event', ref('EventResponse')) },
        errors: { 404: [ErrorMessage.eventNotFound] },
      }),
      patch: operation('/v1/events/{id}', {
        operationId: 'editEvent',
        tag: 'Events',
        scope: 'documents:write',
        summary: 'Edit an event by hand',
        description:
          'Gives an event the facts extraction missed or got wrong: event_type, amount, due_date, ' +
          'reference_number, sender_name. Each given field is remembered as a hand edit: reprocessing keeps it and the ' +
          'document\'s extracted_data shows it with source "edit". The state is then decided again from the new facts ' +
          'unless it is settled (paid, cancelled, archived) or was set by hand; e.g. an invoice in needs_input that gets ' +
          'an amount becomes open (history cause "edited: payable with amount"). Scope documents:write (v1 has no ' +
          "events:write scope) and role editor in the space of the event's document.",
        parameters: [param('EventId')],
        jsonBody: ref('EventPatch'),
        responses: { 200: jsonResponse('The event after the edit', ref('EventResponse')) },
        errors: { 400: [INVALID_PARAMETER, UNKNOWN_PARAMETER], 403: WRITE_403, 404: [ErrorMessage.eventNotFound] },
      }),
    },
    '/v1/events/{id}/state': {
      post: operation('/v1/events/{id}/state', {
        operationId: 'changeEventState',
        tag: 'Events',
        scope: 'documents:write',
        summary: "Change an event's state by hand",
        description:
          'A person settles or files an event; needs role editor in the space of its document. The move ' +
          'must be allowed (below); the same state again changes nothing. Each change is recorded in the history and ' +
          'remembered as set by hand: reprocessing and the hourly expiry never undo it. A change to paid also records a ' +
          'confirmed manual payment; paid → open (payment reversed) marks the latest confirmed payment unconfirmed; a ' +
          "change to active may carry the renewal's new end date (due_date). An invoice moves to open only once it has " +
          `an amount (PATCH /v1/events/{id}).\n\n| from | allowed to |\n|---|---|\n${transitionTable()}`,
        parameters: [param('EventId')],
        jsonBody: ref('EventStateRequest'),
        responses: { 200: jsonResponse('The event after the change', ref('EventResponse')) },
        errors: {
          400: [
            INVALID_PARAMETER,
            UNKNOWN_PARAMETER,
            'Invalid parameter paid_at: only with state paid',
            'Invalid parameter due_date: only with state active',
          ],
          403: WRITE_403,
          404: [ErrorMessage.eventNotFound],
          409: [
            'Cannot change an event from <from> to <to>',
            'Cannot change an event from <from> to open without an amount (set it with PATCH /v1/events/{id})',
          ],
        },
      }),
    },
  };
}

function transitionTable(): string {
  return Object.entries(MANUAL_TRANSITIONS)
    .map(([from, to]) => `| ${from} | ${to.join(', ')} |`)
    .join('\n');
}
