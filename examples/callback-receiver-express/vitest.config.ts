import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'example-callback-receiver-express', include: ['*.test.ts'] } });
