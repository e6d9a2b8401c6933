// The browser edition's reminders (issue 28 item 9): the top bar's bell and its list of due
// reminders, and the browser's own notifications. A reminder's title and kind come from the
// `reminders` catalog the desktop's notifications use.

export const browserRemindersEn = {
  bell: 'Reminders',
  bellCount: 'Reminders: {{count}} due',
  title: 'Due reminders',
  empty: 'No reminders are due. Your performance tasks’ reminders show here when they fall due.',
  quickTask: 'Quick task (no contract)',
  dueOn: 'Due {{date}}',
  open: 'Open',
  dismiss: 'Dismiss',
  snoozed: {
    oneHour: 'You will be reminded again in an hour.',
    tomorrow: 'You will be reminded again tomorrow.',
  },
  notifications: {
    ask: 'Turn on browser notifications',
    askHint: 'Be told of a due reminder while you work in another tab or window.',
    granted: 'Browser notifications are on.',
    denied: 'Browser notifications are blocked for this site: reminders show here only.',
    unsupported: 'This browser cannot show notifications: reminders show here only.',
  },
};

export const browserRemindersZh: typeof browserRemindersEn = {
  bell: '提醒',
  bellCount: '提醒：{{count}} 条到期',
  title: '到期提醒',
  empty: '暂无到期提醒。履约任务的提醒到期后会显示在这里。',
  quickTask: '快捷任务（无合同）',
  dueOn: '到期日 {{date}}',
  open: '打开',
  dismiss: '移除',
  snoozed: {
    oneHour: '将在 1 小时后再次提醒。',
    tomorrow: '将在明天再次提醒。',
  },
  notifications: {
    ask: '开启浏览器通知',
    askHint: '在其他标签页或窗口工作时也能收到到期提醒。',
    granted: '浏览器通知已开启。',
    denied: '此网站的浏览器通知已被阻止：提醒仅显示在这里。',
    unsupported: '此浏览器无法显示通知：提醒仅显示在这里。',
  },
};
