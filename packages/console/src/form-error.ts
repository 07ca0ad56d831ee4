/** A form the console itself refused before calling the service: its message is already a translated sentence. */
export class FormError extends Error {
  constructor(sentence: string) {
    super(sentence);
    this.name = 'FormError';
  }
}
