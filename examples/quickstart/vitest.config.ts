import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'example-quickstart', include: ['*.test.ts'] } });
