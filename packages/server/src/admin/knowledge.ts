import { z } from 'zod';
import { defaultIds, productSchema, SvcError, type KnowledgeBase, type Store } from '@svc/core';

/** The file `svc kb import` reads: products and documents of one knowledge base. */
export const knowledgeFileSchema = z.object({
  name: z.string().min(1).max(200).optional(),
  products: z.array(productSchema).max(100_000).default([]),
  documents: z
    .array(
      z.object({
        title: z.string().min(1).max(300),
        content: z.string().min(1).max(1_000_000),
        url: z.url().optional(),
      }),
    )
    .max(10_000)
    .default([]),
});

export type KnowledgeFile = z.input<typeof knowledgeFileSchema>;

export async function importKnowledgeBase(
  store: Store,
  input: { accountId: string; name?: string; content: unknown },
): Promise<{ knowledgeBase: KnowledgeBase; products: number; documents: number }> {
  const account = await store.getAccount(input.accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${input.accountId} does not exist.`, { field: 'account' });
  const parsed = knowledgeFileSchema.safeParse(input.content);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new SvcError('validation_failed', `${field || 'file'}: ${issue.message}`, { field });
  }
  const file = parsed.data;
  const ids = new Set<string>();
  for (const product of file.products) {
    if (ids.has(product.id)) throw new SvcError('validation_failed', `Product id ${product.id} appears twice.`, { field: 'products' });
    ids.add(product.id);
  }
  const now = new Date();
  const knowledgeBase: KnowledgeBase = {
    id: defaultIds.random('kb'),
    accountId: account.id,
    name: input.name ?? file.name ?? 'Knowledge base',
    createdAt: now,
  };
  await store.transaction(async (tx) => {
    await tx.insertKnowledgeBase(knowledgeBase);
    if (file.products.length > 0) await tx.upsertProducts(knowledgeBase.id, file.products);
    for (const doc of file.documents) {
      await tx.insertDocument({
        id: defaultIds.random('doc'),
        knowledgeBaseId: knowledgeBase.id,
        title: doc.title,
        content: doc.content,
        url: doc.url ?? null,
        createdAt: now,
      });
    }
  });
  return { knowledgeBase, products: file.products.length, documents: file.documents.length };
}
