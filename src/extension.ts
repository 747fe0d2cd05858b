import * as vscode from "vscode";

export function activate(context: vscode.ExtensionContext): void {
  const item = vscode.window.createStatusBarItem("damageControl.status", vscode.StatusBarAlignment.Left, 100);
  item.name = "Damage Control";
  item.text = "$(shield) Damage Control";
  item.show();
  context.subscriptions.push(item);
}

export function deactivate(): void {}
