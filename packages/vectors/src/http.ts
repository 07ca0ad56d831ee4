import { loadVectors, type VectorFile } from './vector-file.js';

/** One HTTP request of a scenario (see the notes of cases/http.json). */
export interface HttpVectorRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-case names; null removes a default header. */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** Sent as JSON text. */
  readonly body?: unknown;
  /** Sent as is; `rawRepeat` is appended, then `rawEnd`. */
  readonly raw?: string;
  readonly rawRepeat?: { readonly text: string; readonly times: number };
  readonly rawEnd?: string;
  /** Admin token to send instead of the runner's; null for no Authorization header. */
  readonly auth?: string | null;
}

export interface HttpVectorExpect {
  readonly status: number;
  readonly problem?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly donnees?: Readonly<Record<string, unknown>>;
  readonly body?: Readonly<Record<string, unknown>>;
}

export type HttpVectorStep =
  | { readonly advance: number }
  | {
      readonly request: HttpVectorRequest;
      readonly expect: HttpVectorExpect;
      readonly save?: Readonly<Record<string, string>>;
      readonly repeat?: number;
    };

export interface HttpCase {
  readonly name: string;
  readonly steps: readonly HttpVectorStep[];
}

export type HttpVectors = VectorFile<HttpCase> & { readonly clockStart: number };

export const loadHttpVectors = () => loadVectors<HttpCase>('http') as HttpVectors;
