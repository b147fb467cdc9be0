import { get, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they crossed the socket (still compressed). */
  wire: Buffer;
}

/** A GET over a real socket, without the automatic decompression of fetch, so the bytes on the wire are seen. */
export function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, wire: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}
