import type { ListQuery, PageResponse } from './types.js';

/**
 * Walks a list page by page, following `pagination.cursor` while `pagination.hasMore`, and yields its items.
 * Each page is one request (and is billed as one); breaking out of the loop stops fetching.
 */
export async function* paginate<T>(
  fetchPage: (query: ListQuery) => Promise<PageResponse<T>>,
  query: ListQuery = {},
): AsyncGenerator<T, void, undefined> {
  let cursor = query.cursor;
  for (;;) {
    const page = await fetchPage({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    yield* page.data;
    if (!page.pagination.hasMore || page.pagination.cursor === null) return;
    cursor = page.pagination.cursor;
  }
}
