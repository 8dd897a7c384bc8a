import {
  CLIENT_EVENT_API_VERSION,
  type ClientEvent,
  type clientStateEventTypes,
} from '../schemas/client-events.js';
import { type StoredClient, toClientResponse } from './client.js';
import type { ClientStatusTrigger } from './status-machine.js';

/** An event with what the log needs to keep it: whose it is, and which client it is about. */
export type LoggedEvent = {
  readonly managerId: string;
  readonly clientId: string;
  readonly event: ClientEvent;
};

/** The event each move of the status machine emits: one per transition, none for a refused move. */
export const eventTypeOfTrigger: Readonly<
  Record<ClientStatusTrigger, (typeof clientStateEventTypes)[number]>
> = {
  CREATE: 'client.created',
  RESUBMIT: 'client.resubmitted',
  REQUEST_RESUBMISSION: 'client.resubmission_requested',
  APPROVE: 'client.approved',
  SIGN_TERMS: 'client.terms_signed',
  DELETE: 'client.deleted',
};

type Stamp = { readonly newId: () => string; readonly at: string };

/**
 * The events of one committed command on a client: its transition, and (when it promoted files)
 * the permanent keys of its documents.
 */
export const eventsOfCommand = (
  trigger: ClientStatusTrigger,
  client: StoredClient,
  promotedDocuments: readonly string[],
  { newId, at }: Stamp,
): LoggedEvent[] => {
  const { managerId } = client;
  const visible = toClientResponse(client);
  const events: LoggedEvent[] = [
    {
      managerId,
      clientId: client.id,
      event: {
        id: newId(),
        type: eventTypeOfTrigger[trigger],
        apiVersion: CLIENT_EVENT_API_VERSION,
        createdAt: at,
        data: { client: visible },
      },
    },
  ];
  if (promotedDocuments.length > 0) {
    events.push({
      managerId,
      clientId: client.id,
      event: {
        id: newId(),
        type: 'documents.promoted',
        apiVersion: CLIENT_EVENT_API_VERSION,
        createdAt: at,
        data: { clientId: client.id, documents: [...promotedDocuments] },
      },
    });
  }
  return events;
};

/** The event a written screening result emits (a first screening, a rescreen, ongoing monitoring). */
export const screeningCompletedEvent = (client: StoredClient, { newId, at }: Stamp): LoggedEvent => ({
  managerId: client.managerId,
  clientId: client.id,
  event: {
    id: newId(),
    type: 'client.screening_completed',
    apiVersion: CLIENT_EVENT_API_VERSION,
    createdAt: at,
    data: { client: toClientResponse(client) },
  },
});
