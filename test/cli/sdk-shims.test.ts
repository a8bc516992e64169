import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DefaultJsonSchemaValidator,
  process as shimProcess,
} from '../../src/cli/host/sdk-shims.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 2 }, count: { type: 'integer' } },
  required: ['name'],
} as const;

describe("the command line's stand-in for the MCP SDK's shims", () => {
  it('checks values as the SDK validator does, loading it on the first check', () => {
    const validate = new DefaultJsonSchemaValidator().getValidator<{ name: string }>(schema);
    expect(validate({ name: 'ok', count: 3 })).toMatchObject({ valid: true, data: { name: 'ok' } });
    const wrong = validate({ name: 'x', count: 1.5 });
    expect(wrong.valid).toBe(false);
    expect(wrong.errorMessage).toMatch(/name|count/);
    expect(validate({ count: 1 }).valid).toBe(false);
  });

  it('gives the SDK the process', () => {
    expect(shimProcess).toBe(process);
  });

  it('is what the built command line bundles in place of the SDK shims, with no Ajv inside', () => {
    const chunks = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'chunks');
    const code = readdirSync(chunks).map((name) => readFileSync(join(chunks, name), 'utf8'));
    expect(code.some((text) => text.includes('// dist/cli/host/sdk-shims.js'))).toBe(true);
    expect(code.some((text) => /\bclass Ajv\b|ajv\/dist\//.test(text))).toBe(false);
  });
});
