import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The renderer is one React app, built once and loaded both by the headless service (served at `/`)
// and by the Electron window.
export default defineConfig({
  root: "renderer",
  base: "./",
  plugins: [react()],
  // One chunk of about 600 kB (React and recharts), loaded from this computer: no point splitting it.
  build: { outDir: "../dist/renderer", emptyOutDir: true, chunkSizeWarningLimit: 1024 },
});
