import { z } from 'zod';

// The app:// Content-Security-Policy forbids eval. zod probes for it when schemas are built, so
// this module is imported before any other (see main.tsx) to switch its compiled parsers off.
z.config({ jitless: true });
