import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

// test/pack.test.ts raises the repository's bound on a hung test for its own hooks and tests:
// packing and `npm install` take far longer than a pure test.
export default defineConfig({ test: packageTests });
