// swagger-parser's check of a document against the OpenAPI (or Swagger) schema, as its validate() runs it, on a
// document that is not dereferenced first (openapi-load.ts). It throws a SyntaxError whose `details` are ajv's errors.
declare module '@apidevtools/swagger-parser/lib/validators/schema.js' {
  export default function validateSchema(api: object): void;
}
