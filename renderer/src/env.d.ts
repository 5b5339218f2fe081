// Vite's `?url` imports (the pdf.js worker) resolve to the emitted asset's URL.
declare module '*?url' {
  const url: string;
  export default url;
}

// Stylesheets imported for their side effect; Vite bundles them.
declare module '*.css';
