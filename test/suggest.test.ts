import { describe, expect, it } from 'vitest';
import { editDistance, suggest, withSuggestions } from '../src/suggest.js';

describe('did you mean', () => {
  it('measures edits, swaps of neighbours included, and stops past the limit', () => {
    expect(editDistance('activate', 'activate')).toBe(0);
    expect(editDistance('activte', 'activate')).toBe(1);
    expect(editDistance('actviate', 'activate')).toBe(1);
    expect(editDistance('list', 'audit')).toBe(4);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });

  it('ranks a case-only difference first, then the closest, and suggests nothing far away', () => {
    expect(suggest('FORMS.md', ['reference.md', 'forms.md', 'form.md'])).toEqual([
      'forms.md',
      'form.md',
    ]);
    expect(suggest('pdf-form', ['pdf-forms', 'pdf-fill', 'docx'])).toEqual(['pdf-forms']);
    expect(suggest('zzzzzz', ['list', 'catalog'])).toEqual([]);
    expect(suggest('ab', ['ab'])).toEqual([]);
  });

  it('writes the suggestion as its own sentence, quoting each name', () => {
    expect(withSuggestions("unknown command 'lst'", ['list'])).toBe(
      "unknown command 'lst'. Did you mean 'list'?",
    );
    expect(withSuggestions('No such file.', ['a', 'b', 'c'])).toBe(
      "No such file. Did you mean 'a', 'b' or 'c'?",
    );
    expect(withSuggestions('Nothing', [])).toBe('Nothing');
  });
});
