import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is one static bundle: served by the web host over http and by Electron over app://.
export default defineConfig({
  root: 'src-renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    // Fonts stay files: the app:// CSP takes fonts from 'self' only, never from data: URLs.
    assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined),
  },
});
