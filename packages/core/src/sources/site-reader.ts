/**
 * The port through which the sync job reads websites (DESIGN.md section 11 "Sources"): core knows no network. The
 * server implements it over HTTP behind the one address policy; tests pass an in-process double.
 */

export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
}

export type PageRead =
  /**
   * An HTML page or a PDF, main content extracted. `url` is the final URL after redirects (each hop passed the
   * address policy). `links`: absolute http(s) URLs found in the page (fragments removed), PDFs included.
   */
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
  /** An XML sitemap or sitemap index: the URLs it lists. */
  | { kind: 'sitemap'; url: string; urls: string[]; validators: PageValidators; downloaded: true }
  /** 304 to our If-None-Match / If-Modified-Since: free, the page's passages are kept. */
  | { kind: 'not_modified'; downloaded: false }
  /** 404 or 410: the page is gone from the site. */
  | { kind: 'gone'; status: number; downloaded: boolean }
  /** Not a page we keep: another content type (a binary download), larger than 5 MB, a refused address, too many redirects. */
  | { kind: 'skipped'; reason: string; downloaded: boolean }
  /** Timeout, 5xx, connection refused, unparsable: reported on the source as a failed page. */
  | { kind: 'failed'; reason: string; status: number | null; downloaded: boolean };

export interface RobotsRules {
  /** Whether our user agent (`SvcConversationsBot`) may fetch this URL. */
  isAllowed(url: string): boolean;
  /** `Sitemap:` lines. */
  sitemaps: string[];
}

export interface SiteReader {
  /** robots.txt of an origin (`https://host:port`); none (404) allows everything; an unreachable one (5xx) allows nothing. */
  robots(origin: string, options: { signal?: AbortSignal }): Promise<RobotsRules>;
  /** One GET with the page deadline, the 5 MB cap and the validators of the previous sync. Never throws but on abort. */
  read(url: string, options: { validators?: PageValidators; signal?: AbortSignal }): Promise<PageRead>;
}

/** What a file upload's adapter extracted from the bytes (`POST /knowledge-bases/{kbId}/files`). */
export type ExtractedFile =
  | { kind: 'documents'; format: 'pdf' | 'docx' | 'html' | 'markdown' | 'text'; documents: { title: string; content: string }[] }
  /** Validated by core with `productSchema`. */
  | { kind: 'products'; format: 'csv' | 'json'; products: unknown[] }
  | { kind: 'failed'; format: 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv' | 'json'; error: string };

export interface UploadedFile {
  name: string;
  bytes: number;
  extracted: ExtractedFile;
}
