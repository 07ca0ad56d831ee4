import { describe, expect, it } from 'vitest';
import { ApiError, type Problem } from './api-error.js';
import { FormError } from './form-error.js';
import { translator } from './i18n/translate.js';
import { problemMessage, problemText } from './problem-sentence.js';

const en = translator('en');
const fr = translator('fr');
const inEnglish = (error: unknown) => problemText(problemMessage(error, en, 'en'));
const inFrench = (error: unknown) => problemText(problemMessage(error, fr, 'fr'));

function problem(status: number, detail: string): Problem {
  return { type: `https://licence.dev/problems/x`, title: 'Title', status, detail };
}

describe('problemMessage', () => {
  it('401: the token was not accepted, sign in again; the detail is left out', () => {
    const error = new ApiError(401, problem(401, 'missing or invalid admin token'));
    expect(inEnglish(error)).toBe('This token was not accepted. Sign in again.');
    expect(inFrench(error)).toBe('Ce jeton n’a pas été accepté. Connectez-vous à nouveau.');
  });

  it('403: not allowed with this token', () => {
    expect(inEnglish(new ApiError(403, problem(403, 'operator only')))).toBe('This token is not allowed to do that.');
  });

  it('English: 404, 409 and 400 add the server’s detail, which says what to fix', () => {
    expect(inEnglish(new ApiError(404, problem(404, 'no such key')))).toBe('Not found. Detail: no such key');
    expect(inEnglish(new ApiError(409, problem(409, 'key …AB12 is revoked')))).toBe(
      'This conflicts with the current state. Detail: key …AB12 is revoked',
    );
    expect(inEnglish(new ApiError(400, problem(400, 'sites: at most 1000')))).toBe(
      'The service refused the request. Detail: sites: at most 1000',
    );
  });

  it('French: 404 leaves the English detail out, the sentence says it', () => {
    const message = problemMessage(new ApiError(404, problem(404, 'no author atelier')), fr, 'fr');
    expect(message).toEqual({ sentence: 'Introuvable.', detail: null });
  });

  it('French: 400 and 409 keep the detail apart, with a lead-in saying it is in English', () => {
    expect(problemMessage(new ApiError(409, problem(409, 'key …AB12 is revoked')), fr, 'fr')).toEqual({
      sentence: 'Cette action est en conflit avec l’état actuel.',
      detail: { lead: 'Détail (en anglais)\u00a0:', text: 'key …AB12 is revoked' },
    });
    expect(inFrench(new ApiError(400, problem(400, 'sites: at most 1000')))).toBe(
      'Le service a refusé la requête. Détail (en anglais)\u00a0: sites: at most 1000',
    );
  });

  it('the detail stays apart from the sentence, for the page to mark it lang="en"', () => {
    expect(problemMessage(new ApiError(400, problem(400, 'name: empty')), en, 'en').detail).toEqual({
      lead: 'Detail:',
      text: 'name: empty',
    });
  });

  it('a 404 without a problem body has the sentence alone', () => {
    expect(problemMessage(new ApiError(404), en, 'en')).toEqual({ sentence: 'Not found.', detail: null });
  });

  it('429 says how long to wait, from Retry-After, or a moment without it', () => {
    expect(inEnglish(new ApiError(429, problem(429, 'x'), 49))).toBe('Too many attempts. Wait 49 s, then try again.');
    expect(inEnglish(new ApiError(429, null, null))).toBe('Too many attempts. Wait a moment, then try again.');
  });

  it('5xx and no answer at all: the service is unavailable, whatever the body says', () => {
    for (const status of [0, 500, 502, 503]) {
      expect(problemMessage(new ApiError(status, problem(status, 'store down: secret path')), en, 'en')).toEqual({
        sentence: 'The service is unavailable. Try again.',
        detail: null,
      });
    }
  });

  it('another 4xx is a refusal without the detail', () => {
    expect(inEnglish(new ApiError(413, problem(413, 'over 64 KiB')))).toBe('The service refused the request.');
  });

  it('a form refused by the console shows its own sentence; anything else a generic one', () => {
    expect(inFrench(new FormError('Sites : invalide.'))).toBe('Sites : invalide.');
    expect(inEnglish(new TypeError('x is undefined'))).toBe(
      'Something went wrong in the console. Reload the page and try again.',
    );
  });

  it('never shows raw JSON', () => {
    expect(inEnglish(new ApiError(409, problem(409, 'conflict')))).not.toMatch(/[{}"]/);
  });
});
