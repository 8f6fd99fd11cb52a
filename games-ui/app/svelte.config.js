// Svelte options of the app (defaults: Svelte 5 with runes).
export default {};
