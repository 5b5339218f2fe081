// Svelte 5 strips TypeScript in <script lang="ts"> by itself; no preprocessor is needed.
export default {
  compilerOptions: { runes: true },
};
