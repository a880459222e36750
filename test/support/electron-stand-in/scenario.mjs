/* global Headers */
/** Drives the real main bundle through the stand-in: the app:// protocol, IPC, the window, menus, secrets. */
export async function runScenario(record) {
  const out = { schemes: record.schemes, sandbox: record.sandbox };
  const serve = record.protocols.get('app');
  const fetchApp = async (url) => {
    try {
      const res = await serve({ url, method: 'GET', headers: new Headers() });
      return { status: res.status, csp: res.headers.get('content-security-policy'), type: res.headers.get('content-type'), body: await res.text() };
    } catch (e) {
      return { threw: String(e && e.message) };
    }
  };
  out.page = await fetchApp('app://inspector/index.html');
  out.root = await fetchApp('app://inspector/');
  const script = /src="\.?\/?([^"]+\.js)"/.exec(out.page.body ?? '')?.[1];
  out.script = script ? { path: script, ...(await fetchApp(`app://inspector/${script}`)) } : undefined;
  if (out.script) out.script.body = out.script.body?.length;
  out.escape = await fetchApp('app://inspector/%2e%2e/%2e%2e/%2e%2e/etc/passwd');
  out.badEscape = await fetchApp('app://inspector/%zz');
  out.page.body = out.page.body?.slice(0, 2000);
  out.root.body = out.root.body?.length;

  const win = record.windows[0];
  out.window = win ? { webPreferences: win.options.webPreferences, loaded: win.loaded } : undefined;
  const ipc = record.ipc.get('inspector:request');
  const frame = { url: 'app://inspector/index.html' };
  frame.top = frame;
  const ask = (channel, input, f = frame) => ipc({ senderFrame: f, sender: win?.webContents }, channel, input);
  out.info = await ask('app:info', {});
  out.list = await ask('dir:list', {});
  const first = out.list?.value?.entries?.find((e) => !e.error);
  out.tokens = first ? await ask('tokens:count', { path: first.path, model: 'gpt-5.4' }) : undefined;
  if (out.tokens?.value) out.tokens = { ok: true, total: out.tokens.value.total, encoding: out.tokens.value.encoding };
  const foreign = { url: 'https://evil.example/' };
  foreign.top = foreign;
  out.foreign = await ask('app:info', {}, foreign);
  const child = { url: 'app://inspector/index.html', top: frame };
  out.subframe = await ask('app:info', {}, child);
  out.apiKey = await ask('settings:set-api-key', { apiKey: 'sk-test-123' });

  // Open Folder: the system dialog chooses; the renderer cannot browse or name a folder of its own.
  out.folderRecent = await ask('folder:recent', {});
  out.folderBrowse = await ask('folder:browse', {});
  out.folderOutside = await ask('folder:open', { path: '/etc' });
  out.folderCancelled = await ask('folder:pick', {});
  const second = process.env.STAND_IN_SECOND_DIR;
  if (second) {
    record.nextOpenDialog = { canceled: false, filePaths: [second] };
    out.folderPicked = await ask('folder:pick', {});
    record.nextOpenDialog = undefined;
    out.listAfterPick = await ask('dir:list', {});
    out.folderEvents = (win?.webContents.sent ?? []).filter((m) => m.channel === 'inspector:event:folder:opened').map((m) => m.payload);
    out.folderBack = await ask('folder:open', { path: out.folderRecent?.value?.current?.[0] });
  }

  out.recentMenus = record.menus.map((m) => m.template[0].submenu.find((i) => i.label === 'Open Recent')?.submenu?.map((i) => i.label));
  out.menu = record.menus.map((m) => m.template.map((t) => ({ label: t.label, items: (t.submenu ?? []).map((i) => i.label ?? i.role ?? i.type) })));

  if (win) {
    const wc = win.webContents;
    out.windowOpen = wc.windowOpenHandler?.({ url: 'https://docs.example/' });
    out.windowOpenFile = wc.windowOpenHandler?.({ url: 'file:///etc/passwd' });
    const nav = (url) => {
      let prevented = false;
      wc.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    out.navigateAway = nav('https://evil.example/');
    out.navigateInside = nav('app://inspector/index.html');
    let permission;
    wc.permissionHandler?.(wc, 'media', (granted) => (permission = granted));
    out.permission = permission;
    const unload = (choice) => {
      record.nextDialogChoice = choice;
      let prevented = false;
      wc.emit('will-prevent-unload', { preventDefault: () => (prevented = true) });
      return prevented;
    };
    out.closeWithoutSaving = unload(0);
    out.keepEditing = unload(1);
    out.dialogs = record.dialogs.map((d) => ({ message: d.message, buttons: d.buttons }));
    win.emit('ready-to-show');
    out.shown = win.shown === true;
  }
  out.external = record.external;
  return out;
}
