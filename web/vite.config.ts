// Vite builds the pages into the folder `yard web serve --static DIR` serves.
// YARD_WEB_OUT (an absolute path) chooses that folder; without it: web/dist.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  build: {
    outDir: process.env.YARD_WEB_OUT || 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
  },
});
