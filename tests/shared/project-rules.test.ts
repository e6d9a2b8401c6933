import { describe, expect, it } from 'vitest';
import { canChangeProject } from '../../src-shared/rules/projects';

describe('who may rename or delete a project', () => {
  const project = { createdBy: 'u-creator' };

  it('lets its creator and any administrator change it', () => {
    expect(canChangeProject({ id: 'u-creator', role: 'staff' }, project)).toBe(true);
    expect(canChangeProject({ id: 'u-admin', role: 'admin' }, project)).toBe(true);
  });

  it('does not let another staff user change it', () => {
    expect(canChangeProject({ id: 'u-other', role: 'staff' }, project)).toBe(false);
  });
});
