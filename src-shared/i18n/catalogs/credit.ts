// The counterparty credit views gated by the organisation's credit platform configuration
// (spec 2 and 6): the dashboard's risk reminders, the credit-risk preview and monitoring table.

export const creditEn = {
  riskReminders: {
    title: 'Counterparty risk reminders',
    empty: 'No counterparty of your contracts has a reported risk.',
    riskCount_one: '{{count}} risk',
    riskCount_other: '{{count}} risks',
    loadFailed: 'The risk reminders could not be read.',
  },
  creditRisk: {
    open: 'Credit risk',
    title: 'Credit risk: {{name}}',
    noParty: 'This contract names no external counterparty.',
    idNumber: 'Credit code',
    rating: 'Credit rating',
    riskCount: 'Risk count',
    noRisks: 'The credit platform reports no risk for this counterparty.',
    dimension: 'Dimension',
    description: 'Risk',
    occurredOn: 'Date',
    viewDetail: 'Counterparty details',
    monitoring: 'Monitoring',
  },
  monitoring: {
    open: 'Monitoring',
    title: 'Monitoring: {{name}}',
    dimension: 'Monitoring dimension',
    info: 'Result',
    updateTime: 'Updated',
    operation: 'Operation',
    view: 'View',
    empty: 'No monitoring results for this counterparty yet.',
  },
  close: 'Close',
};

export const creditZh: typeof creditEn = {
  riskReminders: {
    title: '相对方风险提醒',
    empty: '您的合同相对方暂无风险。',
    riskCount_one: '{{count}} 条风险',
    riskCount_other: '{{count}} 条风险',
    loadFailed: '无法读取风险提醒。',
  },
  creditRisk: {
    open: '信用风险',
    title: '信用风险：{{name}}',
    noParty: '此合同没有外部相对方。',
    idNumber: '统一社会信用代码',
    rating: '信用评级',
    riskCount: '风险数',
    noRisks: '信用平台未报告该相对方的风险。',
    dimension: '维度',
    description: '风险',
    occurredOn: '日期',
    viewDetail: '相对方详情',
    monitoring: '监控',
  },
  monitoring: {
    open: '监控',
    title: '监控：{{name}}',
    dimension: '监控维度',
    info: '监控结果',
    updateTime: '更新时间',
    operation: '操作',
    view: '查看',
    empty: '该相对方暂无监控结果。',
  },
  close: '关闭',
};
