/** Vite turns `./file.css?inline` into the file's (minified) text, which the widget puts in its shadow root. */
declare module '*.css?inline' {
  const css: string;
  export default css;
}

/** The panel chunk's file name (`panel.<hash>.js`), written into widget.js by the build (vite.config.ts). */
declare const __SVC_PANEL__: string;

/** The feedback chunk, relative to the panel (`./fb.<hash>.js`), written into the panel by the build (vite.config.ts). */
declare const __SVC_FEEDBACK__: string;
