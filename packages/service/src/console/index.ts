// console/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { CONSOLE_HEADERS, CONSOLE_PATH, checkedConsoleAssets, handleConsole, isConsolePath } from './console-route.js';
export { FAVICON_PATH, handleFavicon } from './favicon-route.js';
