import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig(libraryBuild);
