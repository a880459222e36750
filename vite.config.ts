import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer: built into dist/renderer, served by app:// in Electron and by the browser-mode server.
export default defineConfig({
  root: 'app/renderer',
  base: './',
  plugins: [react()],
  // One page, loaded from disk or localhost: its size is not a download, so Vite's 500 kB warning says nothing.
  build: { outDir: '../../dist/renderer', emptyOutDir: true, sourcemap: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
});
