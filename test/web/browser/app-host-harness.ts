// A test host for the MCP App page, bundled by test/web/app-page.test.ts (DOM code: checked by tsconfig.client.json, not tsconfig.json) for chromium: the extension's AppBridge
// over postMessage to the page in a sandboxed iframe (allow-scripts only: an opaque origin, as hosts render apps),
// sending one tool call's input and result; the page's own tool calls go to `window.hostCallTool`, which the test
// wires to the official MCP client on the running service.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type Call = { name: string; arguments: Record<string, unknown> };
declare global {
  interface Window {
    hostCallTool(call: Call): Promise<unknown>;
    startHost(html: string, call: Call, result: unknown): Promise<void>;
  }
}

window.startHost = async (html, call, result) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width:900px;height:520px;border:0';
  document.body.append(iframe);
  const tool = { name: call.name, inputSchema: { type: 'object' as const } };
  const bridge = new AppBridge(null, { name: 'test-host', version: '0.0.0' }, { serverTools: {} }, { hostContext: { toolInfo: { tool } } });
  bridge.oncalltool = async (params) => (await window.hostCallTool({ name: params.name, arguments: params.arguments ?? {} })) as never;
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: call.arguments }).then(() => bridge.sendToolResult(result as never));
  };
  // Listening before the page loads: the App sends ui/initialize as soon as its script runs.
  const win = iframe.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(win, win));
  iframe.srcdoc = html;
};
