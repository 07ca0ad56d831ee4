// Types of external-manifest.mjs for the TypeScript test that imports it (src/external-sources.test.ts).

/** One file of external/sources.json. */
export interface ExternalSource {
  /** Path under external/, with `/`. */
  readonly file: string;
  /** Upstream GitHub repository, `owner/name`. */
  readonly repository: string;
  /** Path of the file in that repository. */
  readonly path: string;
  /** The commit the file was read from. */
  readonly commit: string;
  /** The git blob id of the file's bytes. */
  readonly blob: string;
  /** SPDX licence id. */
  readonly license: string;
  /** https://raw.githubusercontent.com/<repository>/<commit>/<path> */
  readonly url: string;
}

export declare const EXTERNAL_DIR: string;
export declare const NOT_DATA: readonly string[];
export declare function gitBlobId(bytes: Uint8Array): string;
export declare function rawUrl(repository: string, commit: string, path: string): string;
export declare function readManifest(dir?: string): ExternalSource[];
export declare function listDataFiles(dir?: string): string[];
export declare function checkLocalFiles(dir?: string): string[];
