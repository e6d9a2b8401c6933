// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formFieldSchema } from '../../src-shared/form/field-config';
import { en } from '../../src-shared/i18n/en';
import { standardTemplateForm } from '../../src-server/contract-forms/seed';
import { contractTypes } from '../../src-server/seed/catalogue';
import { renderForm } from './contract-form/support';

// Every field label of the seeded templates renders as the template wrote it, in both UI
// languages (UI.md: template labels are data and stay), and no field shows its key instead
// (issue 31 item 4).

afterEach(cleanup);

/** A catalog key shown instead of its text ("contractForm.pleaseSelect"). */
const rawKey = new RegExp(`\\b(?:${Object.keys(en).join('|')})\\.[a-zA-Z]+`);

describe.each(['en', 'zh-CN'] as const)('the seeded templates in %s', (language) => {
  it.each(contractTypes.map((type) => [type.name, type] as const))('%s shows every field by its label', (_, type) => {
    const { fields } = standardTemplateForm(type);
    renderForm({ fields: fields.map((field) => formFieldSchema.parse(field)), mode: 'preview', language });
    for (const field of fields) {
      const shown = screen.getByTestId(`field-${field.id}`);
      expect(shown.textContent, field.id).toContain(field.name);
    }
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(rawKey);
    expect(text).not.toMatch(/clause_|bm_/);
  });
});
