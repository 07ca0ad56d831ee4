import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

export default defineConfig({ test: packageTests });
