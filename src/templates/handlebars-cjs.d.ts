// The type of handlebars' CommonJS build (engine.ts imports it rather than the package entry): the package's own.
declare module 'handlebars/dist/cjs/handlebars.js' {
  import Handlebars from 'handlebars';
  export default Handlebars;
}
