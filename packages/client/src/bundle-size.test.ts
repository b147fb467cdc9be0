import { describe, expect, it } from 'vitest';
import { BUNDLE_BUDGET_BYTES, measureBrowserBundle } from './testing/bundle.js';

describe('browser bundle', () => {
  it(`stays within ${BUNDLE_BUDGET_BYTES} bytes gzip, minified`, async () => {
    const size = await measureBrowserBundle();
    console.info(`@svc/client browser bundle: ${size.minifiedBytes} B minified, ${size.gzipBytes} B gzip`);
    expect(size.gzipBytes).toBeLessThanOrEqual(BUNDLE_BUDGET_BYTES);
  });

  it('carries no zod, no @svc/core and no jose: types only cross the package boundary', async () => {
    const { inputs } = await measureBrowserBundle();
    expect(inputs.filter((path) => /zod|\/core\/|svc\+core|jose|node-fetch-native/.test(path))).toEqual([]);
    expect(inputs.some((path) => path.includes('ofetch'))).toBe(true);
  });
});
