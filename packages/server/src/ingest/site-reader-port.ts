/**
 * The core port the site reader implements, declared here until `@svc/core` exports it
 * (packages/core/src/sources/site-reader.ts on the sources-core branch); the same shapes, replaced by the core's
 * types when that branch is merged.
 */
export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
}

export type PageRead =
  | {
      kind: 'page';
      url: string;
      format: 'html' | 'pdf';
      canonical: string | null;
      title: string;
      text: string;
      links: string[];
      noindex: boolean;
      nofollow: boolean;
      validators: PageValidators;
      downloaded: true;
    }
  | { kind: 'sitemap'; url: string; urls: string[]; validators: PageValidators; downloaded: true }
  | { kind: 'not_modified'; downloaded: false }
  | { kind: 'gone'; status: number; downloaded: boolean }
  | { kind: 'skipped'; reason: string; downloaded: boolean }
  | { kind: 'failed'; reason: string; status: number | null; downloaded: boolean };

export interface RobotsRules {
  isAllowed(url: string): boolean;
  sitemaps: string[];
}

export interface SiteReader {
  robots(origin: string, options: { signal?: AbortSignal }): Promise<RobotsRules>;
  read(url: string, options: { validators?: PageValidators; signal?: AbortSignal }): Promise<PageRead>;
}

/** What the upload adapter extracted from a file; core stores documents and validates products (productSchema). */
export type ExtractedFile =
  | { kind: 'documents'; format: 'pdf' | 'docx' | 'html' | 'markdown' | 'text'; documents: { title: string; content: string }[] }
  | { kind: 'products'; format: 'csv' | 'json'; products: unknown[] }
  | { kind: 'failed'; format: 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv' | 'json'; error: string };
