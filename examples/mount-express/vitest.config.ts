import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'example-mount-express', include: ['*.test.ts'] } });
