import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspacePackage } from './test-imports.js';

/** The workspace's groups, as pnpm-workspace.yaml lists them. */
export const WORKSPACE_GROUPS: readonly string[] = ['packages', 'apps', 'tooling'];

/** Folders that hold no one's source: installs, builds, reports, caches, and hidden ones. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', 'test-results']);

/**
 * Every file under `folder` (from `root`), nested folders included, as `/`-separated paths from
 * `root`, sorted; none under node_modules, dist, coverage, test-results or a hidden folder. The
 * disk, not git: a file not yet committed is checked too.
 */
export function filesUnder(root: string, folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.')) walk(path);
      if (entry.isFile()) files.push(path);
    }
  };
  walk(folder);
  return files.sort();
}

/** The workspace's packages (packages/*, apps/*, tooling/* with a package.json), sorted by folder. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of WORKSPACE_GROUPS) {
    if (!existsSync(join(root, group))) continue;
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const manifest = join(root, group, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifest)) continue;
      const { name, private: isPrivate } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: unknown;
        private?: unknown;
      };
      if (typeof name !== 'string') throw new Error(`${group}/${entry.name}/package.json: name: expected a string`);
      found.push({ dir: `${group}/${entry.name}`, name, private: isPrivate === true });
    }
  }
  return found.sort((a, b) => a.dir.localeCompare(b.dir));
}
