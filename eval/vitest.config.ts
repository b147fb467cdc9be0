import { defineProject } from 'vitest/config';
import { sourceResolution } from '../vitest.source.js';

export default defineProject({ ...sourceResolution, test: { name: 'eval', include: ['*.test.ts'] } });
