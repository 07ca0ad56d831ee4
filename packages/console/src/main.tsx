import { render } from 'preact';
import { App } from './components/app.js';

/**
 * The console's entry. The admin API is found from this script's own URL: the script is
 * `<prefix>/console/console.js`, the API `<prefix>/admin/`, so the console works under an API
 * Gateway stage prefix as at the root (docs/protocol.md#console).
 */
const root = document.getElementById('app');
if (root !== null) render(<App base={new URL('../admin/', import.meta.url).href} />, root);
