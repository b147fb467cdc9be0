import type { Principal } from '../domain.js';
import { SvcError } from '../errors.js';
import type { Deleted } from '../schemas/knowledge.js';
import type { SourceDetail, SourceView } from '../schemas/sources.js';
import type { UploadedFile } from '../sources/site-reader.js';
import type { EngineContext } from '../context.js';
import type { EngineResult, PageResult } from './context.js';
import type { ListQueryInput } from './lists.js';

/**
 * Knowledge sources over the public API (DESIGN.md section 11 "Sources"): `knowledge:write` writes, reads take
 * `knowledge:read` or `knowledge:write`. Management calls are free; the crawl's reads are billed by the sync job.
 */

const notYet = (): never => {
  throw new SvcError('internal_error', 'Knowledge sources are being built.');
};

export async function addSource(_ctx: EngineContext, _principal: Principal, _target: { kbId: string; body: unknown }): Promise<EngineResult<SourceView>> {
  return notYet();
}
export async function listSources(_ctx: EngineContext, _principal: Principal, _target: { kbId: string; query: ListQueryInput }): Promise<PageResult<SourceView>> {
  return notYet();
}
export async function getSource(_ctx: EngineContext, _principal: Principal, _target: { kbId: string; sourceId: string }): Promise<EngineResult<SourceDetail>> {
  return notYet();
}
export async function syncSource(_ctx: EngineContext, _principal: Principal, _target: { kbId: string; sourceId: string }): Promise<EngineResult<SourceView>> {
  return notYet();
}
export async function deleteSource(_ctx: EngineContext, _principal: Principal, _target: { kbId: string; sourceId: string }): Promise<EngineResult<Deleted>> {
  return notYet();
}
export async function addFile(_ctx: EngineContext, _principal: Principal, _target: { kbId: string; file: UploadedFile }): Promise<EngineResult<SourceView>> {
  return notYet();
}
