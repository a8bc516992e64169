const [{ McpServer }, { serveStdio }, reg, cat, fsm, cs] = await Promise.all([
  import('@modelcontextprotocol/server'),
  import('@modelcontextprotocol/server/stdio'),
  import('/work/wt10/dist/registry/registry.js'),
  import('/work/wt10/dist/disclosure/catalog.js'),
  import('/work/wt10/dist/node/fs.js'),
  import('/work/wt10/dist/node/cache-store.js'),
]);
const sources = [{ id: 'explicit-0', kind: 'explicit', root: process.argv[2], trust: 'trusted' }];
const r = reg.SkillRegistry.open({ fs: fsm.createNodeFileSystem(), sources, cache: cs.createDirectoryCacheStore('/tmp/h10/home/cache2'), version: 'x', keepScans: false });
const text = cat.renderCatalog(r.active().map((e) => ({ name: e.name, description: e.metadata?.description ?? '', trusted: true })), { budget: 8000 }).text;
serveStdio(() => { const s = new McpServer({ name: 'x', version: '1' }, { instructions: text }); s.server.registerCapabilities({ tools: {} }); s.server.setRequestHandler('tools/list', () => ({ tools: [] })); return s; });
