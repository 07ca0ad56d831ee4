import type { ClientStateDonnees } from './client-states.js';
import { loadVectors } from './vector-file.js';

/**
 * Case shape of `cases/messages.json`: the buyer's sentence of `message()`
 * (docs/protocol.md#messages), word for word in every client.
 */
export interface MessageCase {
  readonly name: string;
  /** The client state the verdict is acted on in (docs/protocol.md#states): grace adds when it was last checked. */
  readonly state: 'fresh' | 'refreshed' | 'grace' | 'lapsed' | 'no_key';
  readonly lang: 'fr' | 'en';
  /** The verdict acted on: signed, or the client's own `reseau` one when lapsed. */
  readonly donnees: ClientStateDonnees;
  /** The exact sentence. */
  readonly message: string;
}

export const loadMessageVectors = () => loadVectors<MessageCase>('messages');
