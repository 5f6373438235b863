import { defineConfig } from 'vite';

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  server: { headers: isolation },      // vite dev
  preview: { headers: isolation },     // vite preview
  optimizeDeps: { exclude: ['bitanim'] },
});
