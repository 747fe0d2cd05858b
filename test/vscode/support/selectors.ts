// Every DOM selector the UI tests use for VS Code 1.139 (code-server 4.139.1), in one place.
// They are VS Code internals, not an API: when the pinned code-server moves, fix them here.
export const sel = {
  /** The workbench root, present once the shell has rendered. */
  workbench: ".monaco-workbench",
  /** Any status bar entry; extension entries carry id="<publisher>.<name>.<item id>". */
  statusBarItem: "#workbench\\.parts\\.statusbar .statusbar-item",
  /** The command palette / quick pick. */
  quickInput: ".quick-input-widget",
  quickInputBox: ".quick-input-widget input.input",
  quickInputRow: ".quick-input-widget .quick-input-list .monaco-list-row",
  /** A row's main label (command title, file name), inside quickInputRow. */
  quickInputLabel: ".label-name",
  /** Editor tabs; the active one also has .active. */
  editorTab: ".tabs-container .tab",
  /** Modal dialogs (showWarningMessage(..., {modal:true})) are HTML in the web workbench. */
  dialog: ".monaco-dialog-box",
  dialogMessage: ".monaco-dialog-box .dialog-message-text",
  dialogDetail: ".monaco-dialog-box .dialog-message-detail",
  dialogButton: ".monaco-dialog-box .dialog-buttons a.monaco-button",
  /** Notification toasts (non-modal showInformationMessage etc.). NOTE: the workbench shows no
   *  toasts at all under --enable-smoke-test-driver (which the harness needs for ?payload=): read
   *  notifications in the notification center instead (readNotifications). */
  notificationToast: ".notification-toast",
  notificationMessage: ".notification-toast .notification-list-item-message",
  /** The notification center (bell in the status bar, or "Notifications: Show Notifications"). */
  notificationsCenter: ".notifications-center.visible",
  notificationsCenterRow: ".notifications-center .monaco-list-row",
  notificationsCenterMessage: ".notification-list-item-message",
  notificationExpand: ".codicon-notifications-expand",
  /** Text lines of the editors in the editor area, and the error squiggles drawn (as overlays)
   *  over them. (Other, hidden editors exist too, e.g. the Output panel's: filter on visibility.) */
  editorLine: "#workbench\\.parts\\.editor .monaco-editor .view-lines .view-line",
  editorSquiggleError: "#workbench\\.parts\\.editor .monaco-editor .view-overlays .squiggly-error",
  /** The quick fix menu (Ctrl+.): one row per code action, its title as text. */
  actionWidgetRow: ".action-widget .monaco-list-row.action",
  /** A walkthrough's steps (Help → Get Started), each with data-step-id="<extension>#<walkthrough>#<step>". */
  walkthroughStep: ".getting-started-step",
  /** The hover widget (editor hovers, e.g. a diagnostic's message). */
  hover: ".monaco-hover",
  /** Problems panel rows (Ctrl+Shift+M). */
  problemsPanel: ".markers-panel",
  problemsRow: ".markers-panel .monaco-list-row",
  /** The primary side bar, and the action buttons of a view's title bar inside it (view/title menus;
   *  each has the command's title as aria-label). */
  sidebar: "#workbench\\.parts\\.sidebar",
  titleAction: ".action-label",
  /** The status bar's cursor position ("Ln 3, Col 1") of the active editor. */
  cursorPosition: "#status\\.editor\\.selection",
  /** A webview is two nested iframes: the host frame, then the content frame. */
  webviewOuter: "iframe.webview.ready",
  webviewInner: "iframe#active-frame",
} as const;
