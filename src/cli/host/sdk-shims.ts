// What the bundled command line gives the MCP SDK in place of its `_shims` entry. On Node that
// entry brings Ajv (about 300 KB of code, ~30 ms to load), which the SDK needs only to check a
// form's answer against its schema (elicitation) or a schema a caller hands it: a server that is
// starting does neither. The validator here loads the SDK's own on first use, through `require`
// (the package is a dependency), and hands every call to it: the same checks, paid for only
// when made. The build maps the SDK's import of `_shims` to this module (scripts/bundle-cli.mjs).
import { createRequire } from 'node:module';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';

interface SdkShims {
  readonly DefaultJsonSchemaValidator: new () => jsonSchemaValidator;
}

/** The SDK's default JSON Schema validator (Ajv on Node), made when it first checks something. */
export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  #validator: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#validator ??= new (
      createRequire(import.meta.url)('@modelcontextprotocol/server/_shims') as SdkShims
    ).DefaultJsonSchemaValidator();
    return this.#validator.getValidator<T>(schema);
  }
}

/** The process, as the SDK's shim for Node exports it. */
export const process: NodeJS.Process = globalThis.process;
