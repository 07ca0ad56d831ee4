// service/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { HEALTH_PATH, createService } from './create-service.js';
export { LOG_REDACTION, redactLogFields } from './log-redaction.js';
export { routeLabel } from './route-label.js';
export { bodyLimitFor, isServicePath } from './service-paths.js';
