import { benchSync } from './sync.bench';

// npm run bench:sync: the sync figures of issue 4 (docs/performance.md).
await benchSync();
