// The sheet editor's cells of every column type (issue 28 item 3, spec 3 "Performance sheet",
// spec 5 "Performance sheet and task forms"): performance times, value ranges, extraction.

export const sheetCellsEn = {
  conditionTypes: { none: 'No condition', single: 'Single or multiple', periodic: 'Periodic' },
  conditionType: 'Condition type',
  referenceNode: 'Reference node',
  /** Days after the node, several separated by commas. */
  days: 'Days after',
  daysHint: 'E.g. 30, 60',
  cycle: 'Cycle',
  /** A performance time written out. */
  timeText: '{{days}} days after {{node}}',
  periodicText: '{{cycle}} from {{days}} days after {{node}}',
  defaultNodes: { signDate: 'the contract signing date', effectiveDate: 'the contract effective date', expiryDate: 'the contract expiry date' },
  and: 'and',
  or: 'or',
  /** The value-range rule shown under a number or money cell. */
  range: 'allowed: {{rule}}',
  rangeInvalid: '{{problem}} ({{range}})',
  invalid: 'This column does not take this value',
  leaderRequired: 'Please select the task leader',
  extract: 'Extract',
  extractTitle: 'Fill this column of every editable row from a field of the contract, once',
  extractNone: 'The contract has no field of this kind',
  extracted: 'Filled the editable rows from "{{field}}"',
  related: 'Follows the contract field "{{field}}"',
};

export const sheetCellsZh: typeof sheetCellsEn = {
  conditionTypes: { none: '无条件', single: '单次/多次', periodic: '周期性' },
  conditionType: '条件类型',
  referenceNode: '参照节点',
  days: '之后天数',
  daysHint: '如 30, 60',
  cycle: '周期',
  timeText: '{{node}}后 {{days}} 天',
  periodicText: '{{node}}后 {{days}} 天起，{{cycle}}',
  defaultNodes: { signDate: '合同签订日期', effectiveDate: '合同生效日期', expiryDate: '合同到期日期' },
  and: '且',
  or: '或',
  range: '允许：{{rule}}',
  rangeInvalid: '{{problem}}（{{range}}）',
  invalid: '该列不接受此值',
  leaderRequired: '请选择任务负责人',
  extract: '提取',
  extractTitle: '从合同字段提取一次，填入此列所有可编辑的行',
  extractNone: '合同中没有此类字段',
  extracted: '已从“{{field}}”填入可编辑的行',
  related: '关联合同字段“{{field}}”',
};
