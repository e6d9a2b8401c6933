// The conflict panel's per-field view (issue 12): which fields both sides changed.

export const syncMergeEn = {
  field: 'Field',
  formField: 'Form field "{{id}}"',
  bothChanged: 'Changed by both',
  wouldMerge: 'Only you changed it',
};

export const syncMergeZh: typeof syncMergeEn = {
  field: '字段',
  formField: '表单字段“{{id}}”',
  bothChanged: '双方都修改了',
  wouldMerge: '仅你修改了',
};
