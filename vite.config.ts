import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer: built into dist/renderer, served by app:// in Electron and by the browser-mode server.
export default defineConfig({
  root: 'app/renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../../dist/renderer', emptyOutDir: true, sourcemap: true, target: 'es2022' },
});
