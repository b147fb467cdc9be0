/** Vite turns `./file.css?inline` into the file's (minified) text, which the widget puts in its shadow root. */
declare module '*.css?inline' {
  const css: string;
  export default css;
}
