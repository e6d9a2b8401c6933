// The cascader (spec 2 and 3): the scene config dialog's performance task and the case type.

export const cascaderEn = {
  placeholder: 'Please select',
  clear: 'Clear',
  noOptions: 'No options',
  chosen_one: '{{count}} chosen',
  chosen_other: '{{count}} chosen',
  caseType: 'Case type',
  performanceTask: 'Performance task',
  allPerformanceTasks: 'All performance tasks',
  custom: 'Custom',
};

export const cascaderZh: typeof cascaderEn = {
  placeholder: '请选择',
  clear: '清空',
  noOptions: '暂无数据',
  chosen_one: '已选 {{count}} 项',
  chosen_other: '已选 {{count}} 项',
  caseType: '案件类型',
  performanceTask: '履约任务',
  allPerformanceTasks: '全部履约任务',
  custom: '自定义',
};
