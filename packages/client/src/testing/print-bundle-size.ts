import { BUNDLE_BUDGET_BYTES, measureBrowserBundle } from './bundle.js';

// `pnpm --filter @svc/client size`: what a browser app pays for the client.
const size = await measureBrowserBundle();
console.log(
  `@svc/client browser bundle: ${size.minifiedBytes} B minified, ${size.gzipBytes} B gzip (budget ${BUNDLE_BUDGET_BYTES} B gzip)`,
);
