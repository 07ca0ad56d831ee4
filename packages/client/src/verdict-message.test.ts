import type { ClientState, Donnees } from '@licence/core';
import { loadMessageVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { positiveVerdict } from '../test/positive-verdict.js';
import { formatDate, verdictMessage } from './verdict-message.js';

const EMIS = Date.UTC(2026, 2, 1, 8, 5, 0) / 1000;
const base: Donnees = positiveVerdict(EMIS, { hote: 'boutique.exemple.fr' });
const refusal = (motif: string, fields: Partial<Donnees> = {}): Donnees => ({ ...base, ok: false, motif, ...fields });
const say = (donnees: Donnees, lang: 'fr' | 'en', state: ClientState = 'refreshed') =>
  verdictMessage({ state, donnees }, lang);

describe('verdictMessage', () => {
  it.each<[string, Donnees, string, string]>([
    ['ok', base, 'Licence valide pour exemple.fr.', 'Licence valid for exemple.fr.'],
    [
      'ok with no domain (a private host)',
      { ...base, domaine: '' },
      'Licence valide pour boutique.exemple.fr.',
      'Licence valid for boutique.exemple.fr.',
    ],
    [
      'essai',
      { ...base, essai: true },
      'Licence en mode essai sur boutique.exemple.fr (site de test ou clé de développement).',
      'Licence in trial mode on boutique.exemple.fr (a test site or a development key).',
    ],
    [
      'autre_domaine, three domains',
      refusal('autre_domaine', { domaine: 'a.fr, b.fr, c.fr' }),
      "Cette clé de licence est déjà utilisée sur a.fr, b.fr et c.fr. Transférez-la depuis votre compte pour l'utiliser sur boutique.exemple.fr.",
      'This licence key is already in use on a.fr, b.fr and c.fr. Transfer it from your account to use it on boutique.exemple.fr.',
    ],
    [
      'autre_domaine, two domains',
      refusal('autre_domaine', { domaine: 'a.fr, b.fr' }),
      "Cette clé de licence est déjà utilisée sur a.fr et b.fr. Transférez-la depuis votre compte pour l'utiliser sur boutique.exemple.fr.",
      'This licence key is already in use on a.fr and b.fr. Transfer it from your account to use it on boutique.exemple.fr.',
    ],
    [
      'autre_domaine on a key with no site',
      refusal('autre_domaine', { domaine: '' }),
      "Cette clé de licence ne permet pas d'activer boutique.exemple.fr.",
      'This licence key cannot be activated on boutique.exemple.fr.',
    ],
    [
      'transfert',
      refusal('transfert', { quand: '2026-11-22T10:14:00Z' }),
      'Cette clé de licence a été transférée vers un autre site le 22 novembre 2026 à 10:14 UTC. Saisissez la nouvelle clé reçue lors du transfert. Domaines concernés : exemple.fr.',
      'This licence key was transferred to another site on 22 November 2026 at 10:14 UTC. Enter the new key you received with the transfer. Domains concerned: exemple.fr.',
    ],
    [
      'regeneration on the first of a month',
      refusal('regeneration', { quand: '2026-05-01T00:00:00Z', domaine: '' }),
      'Cette clé de licence a été remplacée par une nouvelle clé le 1er mai 2026 à 00:00 UTC. Saisissez la nouvelle clé.',
      'This licence key was replaced by a new key on 1 May 2026 at 00:00 UTC. Enter the new key.',
    ],
    [
      'revocation',
      refusal('revocation', { quand: '2026-02-03T23:59:59Z', domaine: 'a.fr, b.fr' }),
      "Cette clé de licence a été révoquée le 3 février 2026 à 23:59 UTC. Contactez l'éditeur du produit. Domaines concernés : a.fr et b.fr.",
      "This licence key was revoked on 3 February 2026 at 23:59 UTC. Contact the product's publisher. Domains concerned: a.fr and b.fr.",
    ],
    [
      'expiree',
      refusal('expiree', { quand: '2026-08-15T12:00:00Z', domaine: '' }),
      "Cette clé d'essai a expiré le 15 août 2026 à 12:00 UTC.",
      'This trial key expired on 15 August 2026 at 12:00 UTC.',
    ],
    [
      'a refusal without a date',
      refusal('revocation', { domaine: '' }),
      "Cette clé de licence a été révoquée. Contactez l'éditeur du produit.",
      "This licence key was revoked. Contact the product's publisher.",
    ],
    [
      'a date in a form this client does not know is shown as it is',
      refusal('revocation', { quand: '2026-08-15', domaine: '' }),
      "Cette clé de licence a été révoquée le 2026-08-15. Contactez l'éditeur du produit.",
      "This licence key was revoked on 2026-08-15. Contact the product's publisher.",
    ],
    [
      'inconnue',
      refusal('inconnue', { domaine: '' }),
      "Cette clé de licence n'existe pas pour ce produit : vérifiez la clé saisie.",
      'This licence key does not exist for this product: check the key you entered.',
    ],
    [
      'a reason a later service may add',
      refusal('suspendue', { domaine: 'exemple.fr' }),
      'Licence refusée pour boutique.exemple.fr (motif : suspendue). Domaines concernés : exemple.fr.',
      'Licence refused for boutique.exemple.fr (reason: suspendue). Domains concerned: exemple.fr.',
    ],
  ])('%s', (_label, donnees, fr, en) => {
    expect(say(donnees, 'fr')).toBe(fr);
    expect(say(donnees, 'en')).toBe(en);
    expect(say(donnees, 'fr', 'fresh')).toBe(fr);
  });

  it('dates the last check when the verdict is only kept through an outage (grace)', () => {
    expect(say(base, 'fr', 'grace')).toBe(
      'Licence valide pour exemple.fr. Le service de licence ne répond pas ; dernière vérification le 1er mars 2026 à 08:05 UTC.',
    );
    expect(say(refusal('revocation', { quand: '2026-02-03T10:00:00Z', domaine: '' }), 'en', 'grace')).toBe(
      "This licence key was revoked on 3 February 2026 at 10:00 UTC. Contact the product's publisher. The licence service is not answering; last checked on 1 March 2026 at 08:05 UTC.",
    );
  });

  it('says the service could not be reached when lapsed, whatever the made-up verdict holds', () => {
    const lapsed = refusal('reseau', { domaine: '', sursis: 0 });
    expect(say(lapsed, 'fr', 'lapsed')).toBe(
      "Le service de licence n'a pas pu être joint : le produit continue de fonctionner et vérifiera la licence plus tard.",
    );
    expect(say(lapsed, 'en', 'lapsed')).toBe(
      'The licence service could not be reached: the product keeps working and will check the licence later.',
    );
  });

  it('writes every month in both languages', () => {
    const months = Array.from({ length: 12 }, (_, month) => formatDate(Date.UTC(2026, month, 10, 7, 3) / 1000, 'fr'));
    // The expected names come from ICU (Intl), an implementation independent of ours.
    const icu = new Intl.DateTimeFormat('fr-FR', { month: 'long', timeZone: 'UTC' });
    expect(months.map((text) => text.split(' ')[1])).toEqual(
      Array.from({ length: 12 }, (_, month) => icu.format(Date.UTC(2026, month, 10))),
    );
    expect(formatDate(Date.UTC(2026, 11, 31, 23, 59) / 1000, 'en')).toBe('31 December 2026 at 23:59 UTC');
    expect(formatDate(Date.UTC(2027, 0, 1) / 1000, 'fr')).toBe('1er janvier 2027 à 00:00 UTC');
  });
});

describe('messages.json: every case, word for word as the PHP client (docs/protocol.md#messages)', () => {
  it.each(loadMessageVectors().cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(verdictMessage({ state: c.state, donnees: c.donnees }, c.lang)).toBe(c.message);
  });
});
