import { describe, expect, it } from 'vitest';
import { BUNDLE_BUDGET_BYTES, measureBrowserBundle } from './testing/bundle.js';

describe('browser bundle', () => {
  it(`stays within ${BUNDLE_BUDGET_BYTES} bytes gzip, minified`, async () => {
    const size = await measureBrowserBundle();
    console.info(`@svc/client browser bundle: ${size.minifiedBytes} B minified, ${size.gzipBytes} B gzip`);
    expect(size.gzipBytes).toBeLessThanOrEqual(BUNDLE_BUDGET_BYTES);
  });

  it('carries no zod, no jose and of @svc/core only its dependency-free SSE reader and stream event names: types cross the package boundary', async () => {
    const { inputs } = await measureBrowserBundle();
    const fromCore = (path: string) => /\/core\/|svc\+core/.test(path);
    const dependencyFree = (path: string) => path.endsWith('core/src/event-stream.ts') || path.endsWith('core/src/schemas/stream-event-names.ts');
    expect(inputs.filter((path) => /zod|jose|node-fetch-native/.test(path) || (fromCore(path) && !dependencyFree(path)))).toEqual([]);
    expect(inputs.some((path) => path.includes('ofetch'))).toBe(true);
  });
});
