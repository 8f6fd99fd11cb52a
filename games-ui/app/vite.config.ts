import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";

// `npm run dev` proxies the API to a `tabletop serve` on port 8000; `npm run build` writes dist/,
// which `tabletop serve --ui-dir games-ui/app/dist` serves at / next to the API under /api.
export default defineConfig({
  plugins: [svelte()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
});
