import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

// The session store uses runes (session.svelte.ts): compile it as the browser would.
export default defineConfig({
  plugins: [svelte()],
  resolve: { conditions: ["browser"] },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
});
